/** A short two-tone chime made with Web Audio: no sound file to ship or fetch. */
export function playChime(): void {
  try {
    const context = new AudioContext();
    const gain = context.createGain();
    gain.connect(context.destination);
    gain.gain.setValueAtTime(0.15, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.5);
    for (const [index, frequency] of [880, 1320].entries()) {
      const oscillator = context.createOscillator();
      oscillator.frequency.value = frequency;
      oscillator.connect(gain);
      oscillator.start(context.currentTime + index * 0.12);
      oscillator.stop(context.currentTime + 0.5);
    }
    setTimeout(() => context.close().catch(() => undefined), 800);
  } catch {
    // No audio output: the visual badge still counts.
  }
}

export const notificationsSupported = () => typeof window !== "undefined" && "Notification" in window;

export function showBrowserNotification(title: string, body: string, tag: string, onClick: () => void): void {
  if (!notificationsSupported() || Notification.permission !== "granted") return;
  const notification = new Notification(title, { body, tag, renotify: true } as NotificationOptions);
  notification.onclick = () => {
    window.focus();
    onClick();
    notification.close();
  };
}
