/** Moves the item at `from` to `to` (a new array). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1) as [T];
  next.splice(to, 0, moved);
  return next;
}

/** The `update-by-column` calls that give each item its index as position (only those that change). */
export function positionChanges<T extends { id: string; position: number }>(ordered: readonly T[]) {
  return ordered.flatMap((item, index) =>
    item.position === index ? [] : [{ id: item.id, position: index }],
  );
}
