/** A location body is "image|link|description" (the image a data URL or empty, the description optional). */
export function parseLocation(body: string): { image: string; link: string; description: string } {
  const [image = "", link = "", ...rest] = body.split("|");
  return { image, link, description: rest.join("|") };
}

/** Only safe schemes leave a location body: a data image thumbnail and an https map link. */
export const isSafeImage = (src: string) => /^data:image\/(jpeg|png|webp|gif);base64,[\w+/=]+$/.test(src);
export const isSafeLink = (href: string) => /^https?:\/\//.test(href);

export interface VCardContact {
  name: string;
  number: string;
}

/** Name (FN) and first phone (waid, else the TEL value's digits) of a shared vCard. */
export function parseVCard(body: string): VCardContact {
  const lines = body.split(/\r?\n/);
  const fn = lines.find((l) => /^FN[;:]/i.test(l));
  const tel = lines.find((l) => /^(item\d+\.)?TEL[;:]/i.test(l));
  const waid = tel?.match(/waid=(\d+)/i)?.[1];
  const telValue = tel ? tel.slice(tel.lastIndexOf(":") + 1) : "";
  return {
    name: fn ? fn.slice(fn.indexOf(":") + 1).trim() : "",
    number: waid ?? telValue.replace(/\D/g, ""),
  };
}
