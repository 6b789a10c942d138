import BoltIcon from "@mui/icons-material/Bolt";
import ContactPhoneOutlined from "@mui/icons-material/ContactPhoneOutlined";
import WebIcon from "@mui/icons-material/WebOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import InputBase from "@mui/material/InputBase";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import type { Contact, Ticket } from "@zapdesk/core";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMatch, useNavigate } from "react-router";
import { api } from "../../lib/api-client";
import { useAuth } from "../../lib/auth";
import { useDebounce } from "../../lib/use-debounce";
import { useMacroRunner, useMacros } from "../macros";
import { fold, visibleScreens } from "./screens";

/** The ticket and contact searches start where the app's lookups do (spec §5). */
export const PALETTE_MIN_SEARCH = 3;
const LIMIT = 6;

interface Option {
  id: string;
  kind: "screen" | "ticket" | "contact" | "macro";
  label: string;
  detail?: string;
  icon: ReactNode;
  run(): void;
}

function useSearches(text: string) {
  const search = useDebounce(text.trim().toLowerCase(), 250);
  const enabled = search.length >= PALETTE_MIN_SEARCH;
  // The ticket list's own search (contact name/number, message words), under the list's access rules.
  const tickets = useQuery({
    queryKey: ["palette", "tickets", search],
    queryFn: () => api.get<{ tickets: Ticket[] }>("/tickets", { searchParam: search, showAll: false }),
    enabled,
  });
  const contacts = useQuery({
    queryKey: ["palette", "contacts", search],
    queryFn: () => api.get<{ contacts: Contact[] }>("/contacts", { searchParam: search }),
    enabled,
  });
  return {
    tickets: enabled ? (tickets.data?.tickets ?? []).slice(0, LIMIT) : [],
    contacts: enabled ? (contacts.data?.contacts ?? []).slice(0, LIMIT) : [],
    loading: enabled && (tickets.isFetching || contacts.isFetching),
  };
}

/**
 * Ctrl/⌘+K (issue 13): jump to any ticket, contact or screen. A combobox over a listbox (WAI-ARIA
 * combobox pattern): the focus stays in the input, the arrows move the active option, Enter goes.
 * The dialog gives the focus back to where it was when it closes.
 */
export function CommandPalette({ open, onClose, onContact }: { open: boolean; onClose(): void; onContact(id: number): void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const titleId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const found = useSearches(text);
  // Issue 23 §2: on an open ticket, its macros run from here too.
  const ticketId = Number(useMatch("/tickets/:ticketId")?.params.ticketId) || 0;
  const { data: macros } = useMacros(open && ticketId > 0);
  const runner = useMacroRunner(ticketId);
  const { run: runMacro } = runner;

  const options = useMemo<Option[]>(() => {
    const wanted = fold(text.trim());
    const screens = visibleScreens(user)
      .map((screen) => ({ screen, label: t(`mainDrawer.listItems.${screen.key}`) }))
      .filter(({ label }) => !wanted || fold(label).includes(wanted))
      .map<Option>(({ screen, label }) => ({
        id: `screen-${screen.path}`,
        kind: "screen",
        label,
        detail: t("flow.palette.screen"),
        icon: <WebIcon fontSize="small" />,
        run: () => navigate(screen.path),
      }));
    const tickets = found.tickets.map<Option>((ticket) => ({
      id: `ticket-${ticket.id}`,
      kind: "ticket",
      label: ticket.contact.name,
      detail: t("flow.palette.ticket", {
        id: ticket.id,
        number: ticket.contact.number,
        status: t(`flow.status.${ticket.status}`),
      }),
      icon: <WhatsAppIcon fontSize="small" />,
      run: () =>
        navigate(ticket.matchedMessageId ? `/tickets/${ticket.id}?message=${ticket.matchedMessageId}` : `/tickets/${ticket.id}`),
    }));
    const contacts = found.contacts.map<Option>((contact) => ({
      id: `contact-${contact.id}`,
      kind: "contact",
      label: contact.name,
      detail: t("flow.palette.contact", { number: contact.number }),
      icon: <ContactPhoneOutlined fontSize="small" />,
      run: () => onContact(contact.id),
    }));
    const macroOptions = (ticketId ? (macros ?? []) : [])
      .filter((macro) => !wanted || fold(macro.name).includes(wanted))
      .map<Option>((macro) => ({
        id: `macro-${macro.id}`,
        kind: "macro",
        label: macro.name,
        detail: t("macros.palette.detail", { id: ticketId }),
        icon: <BoltIcon fontSize="small" />,
        run: () => runMacro(macro),
      }));
    if (!wanted) return [...macroOptions, ...tickets, ...contacts, ...screens.slice(0, 8)];
    // Words that name a screen (each the start of a word of its label) go to it first (issue 20);
    // otherwise tickets first once the user types a name: that is what they are usually after.
    const words = wanted.split(/\s+/);
    const names = (label: string) => {
      const labelWords = fold(label).split(/[\s/-]+/);
      return words.every((word) => labelWords.some((w) => w.startsWith(word)));
    };
    const named = screens.filter((option) => names(option.label));
    return [...named, ...macroOptions, ...tickets, ...contacts, ...screens.filter((option) => !named.includes(option))];
  }, [text, user, t, found.tickets, found.contacts, navigate, onContact, ticketId, macros, runMacro]);

  const current = Math.min(active, Math.max(options.length - 1, 0));
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView?.({ block: "nearest" });
  }, [current]);

  const close = () => {
    setText("");
    setActive(0);
    onClose();
  };
  const choose = (option: Option | undefined) => {
    if (!option) return;
    close();
    option.run();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current + step + options.length) % Math.max(options.length, 1));
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      setActive(event.key === "Home" ? 0 : options.length - 1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(options[current]);
    }
  };
  const optionId = (index: number) => `${listId}-option-${index}`;

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      sx={{ "& .MuiDialog-container": { alignItems: "flex-start", pt: "10vh" } }}
    >
      <Typography
        id={titleId}
        component="h2"
        sx={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" }}
      >
        {t("flow.palette.title")}
      </Typography>
      <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: "divider" }}>
        <InputBase
          autoFocus
          fullWidth
          value={text}
          placeholder={t("flow.palette.placeholder")}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          inputProps={{
            role: "combobox",
            "aria-label": t("flow.palette.placeholder"),
            "aria-expanded": true,
            "aria-controls": listId,
            "aria-autocomplete": "list",
            "aria-activedescendant": options.length ? optionId(current) : undefined,
          }}
        />
      </Box>
      <Box
        component="ul"
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label={t("flow.palette.results")}
        aria-busy={found.loading}
        sx={{ listStyle: "none", m: 0, p: 0.5, maxHeight: "50vh", overflowY: "auto" }}
      >
        {options.map((option, index) => (
          <Box
            component="li"
            key={option.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === current}
            data-index={index}
            onMouseMove={() => setActive(index)}
            onClick={() => choose(option)}
            sx={{
              display: "flex",
              alignItems: "center",
              gap: 1.5,
              px: 1.5,
              py: 1,
              borderRadius: 1,
              cursor: "pointer",
              bgcolor: index === current ? "action.selected" : undefined,
            }}
          >
            <Box sx={{ display: "flex", color: "text.secondary" }} aria-hidden>
              {option.icon}
            </Box>
            <Typography noWrap sx={{ flex: 1 }}>
              {option.label}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap>
              {option.detail}
            </Typography>
          </Box>
        ))}
      </Box>
      {!options.length && (
        <Typography color="text.secondary" sx={{ p: 2 }} role="status">
          {found.loading ? t("common.loading") : t("flow.palette.empty")}
        </Typography>
      )}
      {text.trim().length > 0 && text.trim().length < PALETTE_MIN_SEARCH && (
        <Typography variant="caption" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {t("flow.palette.hint", { count: PALETTE_MIN_SEARCH })}
        </Typography>
      )}
    </Dialog>
  );
}
