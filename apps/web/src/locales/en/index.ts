// Every namespace of this folder's language: the JSON files next to this one, whatever they are
// (the same file in every language folder: a new language copies it unchanged). The server
// renderer, the tests, and the browser once a page built with antd loads (public.ts comes first).
const files = import.meta.glob<Record<string, unknown>>("./*.json", { eager: true, import: "default" });

export default Object.fromEntries(
  Object.entries(files).map(([file, texts]) => [file.slice("./".length, -".json".length), texts]),
) as Record<string, Record<string, unknown>>;
