import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { lazyNamed, OnDemand } from "../../components/ui/on-demand";
import { requestInbox } from "../tickets";
import { focusedWaitingRow, moveInList, rowTicketId } from "./list-navigation";
import { useShortcut } from "./registry";

// The palette and the overlay load the first time they are asked for: the shell paints without them.
const CommandPalette = lazyNamed(() => import("./command-palette"), "CommandPalette");
const ShortcutsOverlay = lazyNamed(() => import("./shortcuts-overlay"), "ShortcutsOverlay");
const ContactModal = lazyNamed(() => import("../contacts/components/contact-modal"), "ContactModal");

/** The composer's text box (the conversation's message input), found by its placeholder. */
function composer(placeholder: string): HTMLTextAreaElement | null {
  return document.querySelector<HTMLTextAreaElement>(`textarea[placeholder="${CSS.escape(placeholder)}"]`);
}

/**
 * The app-wide shortcuts of issue 13, mounted once in the layout: `?` the overlay, Ctrl/⌘+K the
 * palette, `/` the search, j/k/Enter/a on the ticket list, `r` the composer. The open ticket's
 * own keys (a, e, t) live with its actions (use-ticket-shortcuts).
 */
export function KeyboardShortcuts() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [overlay, setOverlay] = useState(false);
  const [palette, setPalette] = useState(false);
  // The last contact stays while its dialog closes (so the closing dialog does not turn into "new contact").
  const [contact, setContact] = useState<{ id: number; open: boolean } | null>(null);

  useShortcut("?", () => setOverlay((open) => !open));
  useShortcut("k", () => setPalette((open) => !open), { mod: true, whileTyping: true, inDialogs: true });
  useShortcut("/", () => requestInbox("search"));
  useShortcut("j", () => moveInList(1));
  useShortcut("k", () => moveInList(-1));
  useShortcut("Enter", () => {
    // Clickable rows open themselves on Enter; a waiting row opens here (the pane offers Accept).
    const row = focusedWaitingRow();
    if (!row) return false;
    navigate(`/tickets/${rowTicketId(row)}`);
  });
  useShortcut("a", () => {
    const accept = focusedWaitingRow()?.querySelector<HTMLButtonElement>("button:not([disabled])");
    if (!accept) return false;
    accept.click();
  });
  useShortcut("r", () => {
    const input = composer(t("conversation.input.placeholder"));
    if (!input || input.disabled) return false;
    input.focus();
  });
  // Esc leaves the message box (which takes the focus when a ticket opens), so the ticket's keys act again.
  useShortcut(
    "Escape",
    () => {
      const input = composer(t("conversation.input.placeholder"));
      if (!input || document.activeElement !== input) return false;
      input.blur();
    },
    { whileTyping: true },
  );
  const onContact = useCallback((id: number) => setContact({ id, open: true }), []);

  return (
    <>
      <OnDemand when={overlay}>
        <ShortcutsOverlay open={overlay} onClose={() => setOverlay(false)} />
      </OnDemand>
      <OnDemand when={palette}>
        <CommandPalette open={palette} onClose={() => setPalette(false)} onContact={onContact} />
      </OnDemand>
      <OnDemand when={!!contact}>
        {contact && (
          <ContactModal open={contact.open} onClose={() => setContact({ ...contact, open: false })} contactId={contact.id} />
        )}
      </OnDemand>
    </>
  );
}
