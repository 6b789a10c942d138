import { CHANNEL_CAPABILITIES, type ChannelCapabilities, type ConnectionProvider } from "@zapdesk/core";

/**
 * What the connection of a ticket can do. A ticket without a connection (or an unknown kind)
 * gets the QR connection's set: what the screens offered before there was more than one kind.
 */
export function capabilitiesOf(provider: ConnectionProvider | null | undefined): ChannelCapabilities {
  return (provider && CHANNEL_CAPABILITIES[provider]) || CHANNEL_CAPABILITIES.baileys;
}

/** WhatsApp "LID" identities (`<digits>@lid`) carry no phone number: show them as a hidden number. */
export const isLidNumber = (number: string | null | undefined) => !!number && /@lid$/i.test(number);

/**
 * Issue 18: a Cloud API business-scoped user id ("BR.1502576394655843"), the address of a customer
 * who uses a WhatsApp username and does not share their number: not a phone number either.
 */
export const isBsuidNumber = (number: string | null | undefined) => !!number && /^[A-Z]{2}\.[A-Za-z0-9.]+$/.test(number);

/** A contact's picture where the ticket's connection fetches profile pictures; undefined shows the initial instead. */
export function pictureOf(
  contact: { profilePicUrl: string },
  provider: ConnectionProvider | null | undefined,
): string | undefined {
  return (capabilitiesOf(provider).profilePictures && contact.profilePicUrl) || undefined;
}
