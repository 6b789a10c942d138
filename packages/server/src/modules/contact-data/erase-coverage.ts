/**
 * What an erasure does to each table that can hold something of a customer (docs/privacy.md has
 * the same account for administrators). `erase-coverage.test.ts` reads the database's foreign keys:
 * a new table that reaches `contacts` (directly or through tickets, messages, …) and is not listed
 * here fails it, and so does any new table that is in neither list: whoever adds one decides, here,
 * what an erasure does with it.
 */
export const ERASED_TABLES: Record<string, string> = {
  contacts: "the row is deleted (name, number, LID, BSUID, username, e-mail, picture URL, owner)",
  contact_extra_info: "deleted with the contact (cascade)",
  contact_changes: "the contact's number history: deleted with the contact (cascade)",
  contact_tags: "deleted with the contact (cascade)",
  tickets: "every ticket of the contact, open and pending ones too, is deleted",
  ticket_tags: "deleted with the tickets (cascade)",
  messages:
    "every message of the contact's tickets (notes included) and every message the person wrote in a group is deleted (the search column goes with its row); their reactions on group messages are removed; group previews are rebuilt",
  outbox: "messages still waiting to be sent go with their message (cascade)",
  note_mentions: "mentions (notifications) in the deleted notes go with them (cascade)",
  ticket_ratings: "CSAT requests and answers of the contact are deleted",
  scheduled_messages: "the contact's scheduled messages (and their files) are deleted",
  webhook_deliveries: "deliveries about the contact, its tickets and messages (their frozen bodies) are deleted",
  import_map: "mappings of the contact, its extra info, tickets, ratings, schedules, messages and notes are deleted",
  lid_mappings: "the LID ↔ number mapping of the person is deleted",
  inbound_events: "handled events whose payload names the number, LID or BSUID are deleted (pending ones are new arrivals)",
  legal_holds:
    "an erasure is refused (409) while a hold is on the contact or one of its tickets: it is released first, on purpose, so no hold is ever erased",
  media_deletions:
    "the erased files are queued here in the erasure's transaction and removed after commit (a failure stays queued for the retention sweep); paths are random names",
  consent_records:
    "what the person was asked and answered on consent, and their opt-outs and opt-ins (with the words and WhatsApp ids): deleted with the contact (cascade)",
  rule_events: "automation rules' queued and handled events of the tickets (ids only): deleted with the tickets (cascade)",
  rule_runs:
    "the automation rules' log of the contact's tickets, which quotes the message that fired a rule: deleted with the tickets (cascade), and by an anonymisation",
  bot_sessions: "a bot's conversation state with the ticket (session ids, offered choices): deleted with the tickets (cascade)",
  bot_jobs: "customer messages waiting for the bot: deleted with their messages and tickets (cascade)",
  audit_log: "kept by law, append-only: an entry `contact.erased` with who, when and counts; entries name contacts by id only",
};

/** Tables that hold nothing of a customer (users, configuration, connections' own state). */
export const TABLES_WITHOUT_CUSTOMER_DATA: Record<string, string> = {
  users: "agents",
  sessions: "agents' sign-ins",
  refresh_tokens: "agents' sign-ins",
  queues: "configuration",
  user_queues: "configuration",
  whatsapps: "connections (the business's own number)",
  whatsapp_queues: "configuration",
  whatsapp_auth:
    "the WhatsApp library's encryption state of a QR connection (keys per chat, no content); kept: the connection needs it, and it goes when the connection is logged out or deleted",
  whatsapp_templates: "Cloud API templates",
  quick_answers: "configuration",
  settings: "configuration",
  tags: "configuration (the links to a contact are erased)",
  webhooks: "configuration (the deliveries are erased)",
  push_subscriptions: "agents' browsers",
  notification_preferences: "agents' choices",
  routing_queues: "configuration",
  routing_users: "configuration",
  retention_policies: "configuration",
  closing_reasons: "configuration (a ticket's reason goes with the ticket)",
  macros: "agents' reusable actions (no ticket or contact is named; a run's effects go with the ticket)",
  user_two_factor: "agents' second factor",
  user_recovery_codes: "agents' recovery codes",
  retention_state: "a running retention sweep's counts",
  zapdesk_migrations: "the schema's version",
  consent_configs: "configuration (the consent message of a connection or queue)",
  automation_rules: "configuration (what a rule did is in rule_runs, erased with the tickets)",
  rule_skips: "counts per rule, hour and condition of the events a rule did not fire on (no ticket, contact or text)",
  menu_nodes: "configuration (a connection's menu tree)",
  queue_bots: "configuration (a queue's bot; its token sealed)",
};
