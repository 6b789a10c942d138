const pad = (n: number) => String(n).padStart(2, "0");

export const formatHourMinute = (date: Date) => `${pad(date.getHours())}:${pad(date.getMinutes())}`;
export const formatDay = (date: Date) => `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;

export function isSameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** Spec §2: a ticket row shows HH:mm when it changed today, otherwise dd/MM/yyyy (local time). */
export function formatTicketTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  return isSameDay(date, now) ? formatHourMinute(date) : formatDay(date);
}
