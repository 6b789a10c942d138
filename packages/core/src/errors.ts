/**
 * The error catalogue (spec §8 plus the design's generic codes) and the one table
 * that maps each code to its HTTP status. Server and web both read it.
 */
export const ERROR_STATUS = {
  ERR_VALIDATION: 400,
  ERR_NOT_FOUND: 404,
  ERR_RATE_LIMITED: 429,
  ERR_INTERNAL: 500,
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 409,
  ERR_WAPP_CHECK_CONTACT: 502,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 502,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 502,
  ERR_DELETE_WAPP_MSG: 502,
  ERR_OTHER_OPEN_TICKET: 409,
  // No session at all (or the refresh cookie is gone): log in again.
  ERR_SESSION_EXPIRED: 401,
  // The access token expired or is not valid: the client refreshes once and retries (design §3).
  ERR_TOKEN_EXPIRED: 403,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_QUICK_ANSWER_FOUND: 404,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 404,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Channels (QR and Cloud API)
  ERR_WAPP_WINDOW_CLOSED: 409,
  ERR_WAPP_NOT_SUPPORTED: 409,
  ERR_MESSAGE_NOT_FAILED: 409,
  ERR_MESSAGE_SENDING: 409,
  ERR_CLOUD_API: 502,
  ERR_WEBHOOK_SIGNATURE: 401,
  ERR_WEBHOOK_VERIFY_TOKEN: 403,
  ERR_NO_TEMPLATE_FOUND: 404,
  // Hardening (issue 12)
  ERR_URL_TOO_LONG: 414,
  ERR_SERVICE_UNAVAILABLE: 503,
  ERR_LAST_ADMIN: 409,
  // Backups
  ERR_NO_BACKUP_FOUND: 404,
  ERR_BACKUP_RUNNING: 409,
  ERR_CONTACT_NUMBER_ADMIN_ONLY: 403,
  // Issue 18: an admin merges two contacts of one person
  ERR_CONTACT_MERGE_SAME: 400,
  ERR_CONTACT_MERGE_GROUP: 409,
  // Issue 11: scheduled messages
  ERR_NO_SCHEDULE_FOUND: 404,
  ERR_SCHEDULE_NOT_EDITABLE: 409,
  // Issue 11: notes
  ERR_NOTE_MENTION_NO_ACCESS: 422,
  ERR_NO_MENTION_FOUND: 404,
  // Issue 11: outbound webhooks
  ERR_NO_WEBHOOK_FOUND: 404,
  ERR_NO_WEBHOOK_DELIVERY_FOUND: 404,
  ERR_WEBHOOK_PRIVATE_TARGET: 400,
  ERR_WEBHOOK_UNRESOLVABLE: 400,
  ERR_WEBHOOK_DELIVERY_NOT_FAILED: 409,
  // Issue 11: tags
  ERR_NO_TAG_FOUND: 404,
  ERR_TAG_NAME_EXISTS: 409,
  // Issue 13: push
  ERR_PUSH_ENDPOINT_NOT_ALLOWED: 400,
  // Issue 19: heavy reads (searches, dashboards)
  ERR_SEARCH_TOO_SHORT: 400,
  ERR_HEAVY_READ_BUSY: 429,
  ERR_QUERY_TIMEOUT: 503,
  // Requests the table used to leave to hand-set statuses
  ERR_TICKET_NOT_OPEN: 409,
  ERR_TICKET_TRANSITION: 409,
  ERR_ALREADY_EXISTS: 409,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  // Issue 22: sessions and the audit trail
  ERR_NO_SESSION_FOUND: 404,
  ERR_AUDIT_RANGE: 400,
  // Issue 22 §1: retention
  ERR_NO_LEGAL_HOLD_FOUND: 404,
  ERR_RETENTION_RUNNING: 409,
  // Issue 23 §6: closing reasons
  ERR_NO_CLOSING_REASON_FOUND: 404,
  ERR_CLOSING_REASON_NAME_EXISTS: 409,
  ERR_CLOSING_REASON_IN_USE: 409,
  ERR_CLOSING_REASON_REQUIRED: 400,
  ERR_CLOSING_REASON_ARCHIVED: 409,
  ERR_CLOSING_VALUE_REQUIRED: 400,
  ERR_CLOSING_VALUE_NOT_ALLOWED: 400,
  ERR_CLOSING_REASON_NOT_CLOSING: 409,
  // Issue 22 §5: two-factor sign-in (TOTP and recovery codes)
  ERR_TOTP_REQUIRED: 403,
  ERR_TOTP_INVALID: 400,
  ERR_TOTP_CHALLENGE_EXPIRED: 401,
  ERR_TOTP_ALREADY_ENABLED: 409,
  ERR_TOTP_NOT_ENABLED: 409,
  ERR_TOTP_RESET_SELF: 403,
  ERR_TOTP_ENROL_FIRST: 409,
  // Issue 22 §2: a customer's data (export, erase)
  ERR_CONTACT_IS_GROUP: 409,
  ERR_CONTACT_ERASE_CONFIRM: 400,
  ERR_CONTACT_LEGAL_HOLD: 409,
  // Issue 22 §3: consent and opt-out
  ERR_CONTACT_OPTED_OUT: 409,
  ERR_NO_CONSENT_CONFIG_FOUND: 404,
  ERR_CONSENT_SCOPE: 400,
  ERR_CONSENT_CONFIG_EXISTS: 409,
  ERR_NO_MACRO_FOUND: 404,
  ERR_MACRO_NAME_EXISTS: 409,
  // Issue 23 §5: contact owners
  ERR_CONTACT_OWNER_TAKEN: 409,
  ERR_CONTACT_OWNER_ADMIN_ONLY: 403,
  // Issue 23 §3: menus that branch
  ERR_MENU_TOO_DEEP: 400,
  ERR_MENU_TOO_MANY_OPTIONS: 400,
  ERR_MENU_EMPTY_LEVEL: 400,
  ERR_MENU_TARGET_MISSING: 400,
  ERR_MENU_TARGET_NOT_FOUND: 400,
  ERR_MENU_MEDIA_NOT_FOUND: 400,
  // Issue 23 §4: bots that hand over
  ERR_NO_BOT_FOUND: 404,
  ERR_BOT_NOT_HOLDING: 409,
  // A signed public link to a message's media (bots fetch the customer's files without a session)
  /** The link's signature does not match (tampered, forged, another message's id, or not a link at all). */
  ERR_MEDIA_LINK_INVALID: 403,
  /** A genuine link past its expiry. */
  ERR_MEDIA_LINK_EXPIRED: 410,
  /** A genuine link whose message was deleted or erased, or whose file was removed (retention). */
  ERR_MEDIA_GONE: 410,
  // Issue 23 §1: automation rules
  ERR_NO_RULE_FOUND: 404,
  ERR_RULE_NAME_EXISTS: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_STATUS, value);
}

/** English fallback texts; the web translates codes under `backendErrors`. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  ERR_VALIDATION: "The request is not valid.",
  ERR_NOT_FOUND: "Not found.",
  ERR_RATE_LIMITED: "Too many attempts, please wait a moment.",
  ERR_INTERNAL: "An internal error occurred.",
  ERR_NO_OTHER_WHATSAPP: "There must be at least one default WhatsApp connection.",
  ERR_NO_DEF_WAPP_FOUND: "No default WhatsApp found. Check the connections page.",
  ERR_WAPP_NOT_INITIALIZED: "This WhatsApp session is not initialized.",
  ERR_WAPP_CHECK_CONTACT: "Could not check the WhatsApp contact.",
  ERR_WAPP_INVALID_CONTACT: "This is not a valid WhatsApp number.",
  ERR_WAPP_DOWNLOAD_MEDIA: "Could not download media from WhatsApp.",
  ERR_INVALID_CREDENTIALS: "Authentication error. Please try again.",
  ERR_SENDING_WAPP_MSG: "Error sending the WhatsApp message.",
  ERR_DELETE_WAPP_MSG: "Could not delete the message from WhatsApp.",
  ERR_OTHER_OPEN_TICKET: "There is already an open ticket for this contact.",
  ERR_SESSION_EXPIRED: "Session expired. Please log in.",
  ERR_TOKEN_EXPIRED: "Session expired. Please refresh.",
  ERR_USER_CREATION_DISABLED: "User creation was disabled by the administrator.",
  ERR_NO_PERMISSION: "You don't have permission to access this resource.",
  ERR_DUPLICATED_CONTACT: "A contact with this number already exists.",
  ERR_NO_SETTING_FOUND: "No setting found with this ID.",
  ERR_NO_CONTACT_FOUND: "No contact found with this ID.",
  ERR_NO_TICKET_FOUND: "No ticket found with this ID.",
  ERR_NO_USER_FOUND: "No user found with this ID.",
  ERR_NO_WAPP_FOUND: "No WhatsApp found with this ID.",
  ERR_NO_QUEUE_FOUND: "No queue found with this ID.",
  ERR_NO_QUICK_ANSWER_FOUND: "No quick answer found with this ID.",
  ERR_NO_MESSAGE_FOUND: "No message found with this ID.",
  ERR_CREATING_MESSAGE: "Error while creating the message in the database.",
  ERR_CREATING_TICKET: "Error while creating the ticket in the database.",
  ERR_FETCH_WAPP_MSG: "Error fetching the WhatsApp message, maybe it is too old.",
  ERR_QUEUE_COLOR_ALREADY_EXISTS: "This colour is already in use, pick another one.",
  ERR_WAPP_GREETING_REQUIRED: "A greeting message is required when there is more than one queue.",
  ERR_WAPP_WINDOW_CLOSED: "The 24-hour window with this customer is closed: send an approved template instead.",
  ERR_WAPP_NOT_SUPPORTED: "This kind of connection cannot do that.",
  ERR_MESSAGE_NOT_FAILED: "Only a message WhatsApp refused, or one whose send was never answered, can be sent again.",
  ERR_MESSAGE_SENDING: "The message is being sent right now: try again in a moment.",
  ERR_CLOUD_API: "The WhatsApp Cloud API refused the request.",
  ERR_WEBHOOK_SIGNATURE: "The webhook signature is missing or wrong.",
  ERR_WEBHOOK_VERIFY_TOKEN: "The webhook verify token does not match.",
  ERR_NO_TEMPLATE_FOUND: "No approved template found with this name and language.",
  ERR_URL_TOO_LONG: "The address is too long.",
  ERR_SERVICE_UNAVAILABLE: "The service is temporarily unavailable, please try again in a moment.",
  ERR_LAST_ADMIN: "The last administrator cannot be deleted or lose that profile.",
  ERR_NO_BACKUP_FOUND: "No backup found with this name.",
  ERR_BACKUP_RUNNING: "A backup is already being written; try again when it is done.",
  ERR_CONTACT_NUMBER_ADMIN_ONLY: "Only an administrator can change the number of a contact that has tickets.",
  ERR_CONTACT_MERGE_SAME: "A contact cannot be merged into itself.",
  ERR_CONTACT_MERGE_GROUP: "Groups cannot be merged: only two contacts of one person can.",
  ERR_NO_SCHEDULE_FOUND: "No scheduled message found with this ID.",
  ERR_SCHEDULE_NOT_EDITABLE: "This message was already sent or cancelled and can no longer be changed.",
  // Issue 11: notes
  ERR_NOTE_MENTION_NO_ACCESS: "A mentioned colleague cannot see this ticket.",
  ERR_NO_MENTION_FOUND: "No mention found with this ID.",
  ERR_NO_WEBHOOK_FOUND: "No webhook found with this ID.",
  ERR_NO_WEBHOOK_DELIVERY_FOUND: "No webhook delivery found with this ID.",
  ERR_WEBHOOK_PRIVATE_TARGET: "This address is private or local: allow private targets in Settings to use it.",
  ERR_WEBHOOK_UNRESOLVABLE: "The webhook's host name could not be resolved.",
  ERR_WEBHOOK_DELIVERY_NOT_FAILED: "Only a failed delivery can be resent.",
  ERR_NO_TAG_FOUND: "No tag found with this ID.",
  ERR_TAG_NAME_EXISTS: "A tag with this name already exists.",
  ERR_PUSH_ENDPOINT_NOT_ALLOWED: "This push service address is not allowed (it must be a public https address).",
  ERR_SEARCH_TOO_SHORT: "Type at least 2 characters to search.",
  ERR_HEAVY_READ_BUSY: "Your previous search or report is still running: try again when it finishes.",
  ERR_QUERY_TIMEOUT: "This search or report took too long: narrow it down and try again.",
  ERR_TICKET_NOT_OPEN: "Reopen or accept this ticket to send a message.",
  ERR_TICKET_TRANSITION: "This change does not fit the ticket's current status.",
  ERR_ALREADY_EXISTS: "This record already exists.",
  ERR_PAYLOAD_TOO_LARGE: "The file or request is too large.",
  ERR_UNSUPPORTED_MEDIA_TYPE: "This content type is not accepted here.",
  ERR_NO_SESSION_FOUND: "No session found with this ID (it may have ended already).",
  ERR_AUDIT_RANGE: "The start of the period must come before its end.",
  ERR_NO_LEGAL_HOLD_FOUND: "No legal hold found with this ID (it may have been released already).",
  ERR_RETENTION_RUNNING: "A retention sweep is running now; try again in a moment.",
  ERR_NO_CLOSING_REASON_FOUND: "No closing reason found with this ID.",
  ERR_CLOSING_REASON_NAME_EXISTS: "A closing reason with this name already exists.",
  ERR_CLOSING_REASON_IN_USE: "This closing reason is on tickets: archive it instead of deleting it.",
  ERR_CLOSING_REASON_REQUIRED: "This queue asks for a closing reason: choose one to resolve the ticket.",
  ERR_CLOSING_REASON_ARCHIVED: "This closing reason is archived: choose another one.",
  ERR_CLOSING_VALUE_REQUIRED: "This closing reason asks for a value.",
  ERR_CLOSING_VALUE_NOT_ALLOWED: "This closing reason takes no value.",
  ERR_CLOSING_REASON_NOT_CLOSING: "A closing reason is given when resolving a ticket, or to correct a closed one.",
  ERR_TOTP_REQUIRED: "Two-factor sign-in is required for your account: set it up to go on.",
  ERR_TOTP_INVALID: "This code (or password) is not valid, or the code was already used: enter the next code from your app.",
  ERR_TOTP_CHALLENGE_EXPIRED: "The sign-in took too long: enter your email and password again.",
  ERR_TOTP_ALREADY_ENABLED: "Two-factor sign-in is already on for this account.",
  ERR_TOTP_NOT_ENABLED: "Two-factor sign-in is not on for this account.",
  ERR_TOTP_RESET_SELF: "Another administrator must reset your own two-factor sign-in.",
  ERR_TOTP_ENROL_FIRST: "Turn on two-factor sign-in for yourself before requiring it.",
  ERR_CONTACT_IS_GROUP: "A group is not a person: a customer's data is exported or erased from their own contact.",
  ERR_CONTACT_ERASE_CONFIRM: "Type the contact's name or number exactly to confirm the erasure.",
  ERR_CONTACT_LEGAL_HOLD: "The contact or one of its tickets is under a legal hold: release the hold before erasing.",
  ERR_CONTACT_OPTED_OUT:
    "The customer opted out of automatic messages (they wrote an opt-out word): nothing automatic goes to them until they write again.",
  ERR_NO_CONSENT_CONFIG_FOUND: "No consent message found with this ID.",
  ERR_CONSENT_SCOPE: "A consent message is for exactly one connection or one queue (one that exists).",
  ERR_CONSENT_CONFIG_EXISTS: "This connection or queue already has a consent message: edit it.",
  ERR_NO_MACRO_FOUND: "No macro found with this ID.",
  ERR_MACRO_NAME_EXISTS: "A macro with this name already exists.",
  ERR_CONTACT_OWNER_TAKEN: "This contact already has an owner: only an administrator gives it to someone else.",
  ERR_CONTACT_OWNER_ADMIN_ONLY: "Only an administrator makes another agent a contact's owner.",
  ERR_MENU_TOO_DEEP: "A menu has at most 5 levels of options.",
  ERR_MENU_TOO_MANY_OPTIONS: "A menu level has at most 20 options.",
  ERR_MENU_EMPTY_LEVEL: "An option that opens a sub-menu needs at least one option of its own.",
  ERR_MENU_TARGET_MISSING: "An option that hands over to a queue or an agent needs that queue or agent.",
  ERR_MENU_TARGET_NOT_FOUND: "A queue or agent chosen in the menu does not exist.",
  ERR_MENU_MEDIA_NOT_FOUND: "A file chosen in the menu was not uploaded here: upload it again.",
  ERR_NO_BOT_FOUND: "This queue has no bot.",
  ERR_BOT_NOT_HOLDING: "No bot holds this ticket.",
  ERR_MEDIA_LINK_INVALID: "This media link is not valid.",
  ERR_MEDIA_LINK_EXPIRED: "This media link has expired.",
  ERR_MEDIA_GONE: "This file is no longer available.",
  ERR_NO_RULE_FOUND: "Automation rule not found.",
  ERR_RULE_NAME_EXISTS: "An automation rule with this name already exists.",
};

export interface ErrorDetail {
  path: (string | number)[];
  message: string;
}

/** The body of every error answer. */
export interface ErrorBody {
  error: ErrorCode;
  message?: string;
  details?: ErrorDetail[];
}
