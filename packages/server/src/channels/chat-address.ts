/**
 * The kinds of address a contact's `number` holds (channels.ts `ChatNumber`): a phone number as
 * digits, a group id, "<lid>@lid" for a QR customer WhatsApp shows only by LID, or a Cloud API
 * business-scoped user id ("BR.1502576394655843") for a customer who hides their number.
 */
export const isLidAddress = (chat: string) => chat.endsWith("@lid");

/**
 * Meta's BSUID: an ISO 3166 alpha-2 country code, a period, then up to 128 alphanumerics; a parent
 * BSUID adds "ENT." ("US.ENT.11815799212886844830"). Never digits alone, so never taken for a number.
 */
export const isBsuidAddress = (chat: string) => /^[A-Z]{2}\.[A-Za-z0-9.]{1,140}$/.test(chat);

export const isPhoneAddress = (chat: string) => /^\d{5,20}$/.test(chat);

/** A person's address that is not a phone number: replies go to it as it is. */
export const isAliasAddress = (chat: string) => isLidAddress(chat) || isBsuidAddress(chat);

/**
 * Brazil's ninth digit (Chatwoot #5840, Baileys #2124): mobiles are 55 + area (two digits, no 0)
 * + 9 + eight digits, and WhatsApp still knows many accounts opened before 2016 without the 9.
 * Both forms are one person. Only the old mobile ranges (6–9 after the area code) have a twin:
 * "55 DD 2XXX-XXXX" is a landline, a different line from the mobile "55 DD 9 2XXX-XXXX".
 */
const WITH_NINE = /^55([1-9]{2})9([6-9]\d{7})$/;
const WITHOUT_NINE = /^55([1-9]{2})([6-9]\d{7})$/;

/** The other form of a Brazilian mobile number (with or without the ninth digit); undefined for any other address. */
export function twinOf(number: string): string | undefined {
  const long = WITH_NINE.exec(number);
  if (long) return `55${long[1]}${long[2]}`;
  const short = WITHOUT_NINE.exec(number);
  if (short) return `55${short[1]}9${short[2]}`;
  return undefined;
}
