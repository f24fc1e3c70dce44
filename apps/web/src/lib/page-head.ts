/**
 * The title and description of the page being rendered on the server, which writes them in
 * the HTML head; in the browser `usePageTitle` sets them on the document instead.
 */
export interface PageHead {
  title?: string;
  description?: string;
}

let collecting: PageHead | null = null;

export function collectPageHead(head: PageHead | null): void {
  collecting = head;
}

export function recordPageHead(head: PageHead): void {
  if (collecting) Object.assign(collecting, head);
}
