/**
 * The ticket list under the keyboard (issue 13): j/k move the focus through the rows of the list
 * on screen, Enter opens the focused row, `a` accepts a focused waiting row. The rows are the
 * virtualised list's own elements (`data-ticket-id`), so the focus ring and scrolling are native.
 */
const ROW = "[data-ticket-id]";

export function activeList(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-ticket-list="active"]');
}

function rows(list: HTMLElement): HTMLElement[] {
  return Array.from(list.querySelectorAll<HTMLElement>(ROW));
}

/** The row the keyboard is on: the focused one, else the open ticket's. */
function currentRow(list: HTMLElement): HTMLElement | null {
  const focused = document.activeElement?.closest<HTMLElement>(ROW);
  if (focused && list.contains(focused)) return focused;
  return list.querySelector<HTMLElement>(`${ROW}[aria-current="true"]`);
}

/** Move by `step` rows (1: j, -1: k); answers whether a row took the focus. */
export function moveInList(step: 1 | -1): boolean {
  const list = activeList();
  if (!list) return false;
  const all = rows(list);
  if (!all.length) return false;
  const current = currentRow(list);
  const index = current ? all.indexOf(current) : -1;
  const target = index < 0 ? all[step > 0 ? 0 : all.length - 1] : all[index + step];
  if (!target) return true;
  target.focus();
  target.scrollIntoView?.({ block: "nearest" });
  return true;
}

/** A waiting row with the focus (not clickable per spec §2, but the keyboard may open or accept it). */
export function focusedWaitingRow(): HTMLElement | null {
  const row = document.activeElement?.closest<HTMLElement>(ROW);
  return row && row.getAttribute("role") !== "button" ? row : null;
}

export const rowTicketId = (row: HTMLElement) => Number(row.dataset.ticketId);
