import CloseIcon from "@mui/icons-material/Close";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { type ConnectionProvider, can, type Ticket } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PhoneNumber } from "../../../components/phone-number";
import { useAuth } from "../../../lib/auth";
import { pictureOf } from "../../../lib/capabilities";
import { ContactOwnerField } from "../../contact-owner";
import { ContactDataDialog, MergeContactDialog } from "../../contacts";
import { ContactConsent, LegalHoldControl } from "../../privacy";
import { ScheduleButton } from "../../schedules";
import { ContactTags } from "../../tags/components/contact-tags";

export const CONTACT_DRAWER_WIDTH = 320;

interface ContactDrawerProps {
  open: boolean;
  onClose(): void;
  contact: Ticket["contact"];
  /** The ticket's kind of connection: no profile picture where it cannot fetch one. */
  provider?: ConnectionProvider | null;
  onEdit(): void;
  /** Over the conversation instead of beside it: where the screen has no room for both. */
  overlay?: boolean;
  /** A group's conversation: no person's data to export or erase. */
  isGroup?: boolean;
}

/** Spec §2: 320 px, name, number as a tel link (a private LID identity has none), edit, extra info. */
export function ContactDrawer({
  open,
  onClose,
  contact,
  provider,
  onEdit,
  overlay = false,
  isGroup = false,
}: ContactDrawerProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [merging, setMerging] = useState(false);
  const [dataOpen, setDataOpen] = useState(false);
  return (
    <Drawer
      anchor="right"
      variant={overlay ? "temporary" : "persistent"}
      open={open}
      onClose={onClose}
      sx={
        overlay
          ? { zIndex: "modal", "& .MuiDrawer-paper": { width: CONTACT_DRAWER_WIDTH, maxWidth: "100%" } }
          : {
              width: open ? CONTACT_DRAWER_WIDTH : 0,
              flexShrink: 0,
              "& .MuiDrawer-paper": { width: CONTACT_DRAWER_WIDTH, position: "relative" },
            }
      }
      slotProps={{ paper: { "aria-label": t("tickets.contactDrawer.title") } as object }}
    >
      <Toolbar variant="dense" sx={{ gap: 1 }}>
        <Typography sx={{ flex: 1 }}>{t("tickets.contactDrawer.title")}</Typography>
        <IconButton aria-label={t("tickets.contactDrawer.close")} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Toolbar>
      <Box sx={{ p: 2, display: "flex", flexDirection: "column", alignItems: "center", gap: 1 }}>
        <Avatar src={pictureOf(contact, provider)} alt={contact.name} sx={{ width: 120, height: 120 }}>
          {contact.name.charAt(0).toUpperCase()}
        </Avatar>
        <Typography variant="h6">{contact.name}</Typography>
        <PhoneNumber number={contact.number} link />
        <Button variant="outlined" onClick={onEdit}>
          {t("tickets.contactDrawer.edit")}
        </Button>
        <ScheduleButton variant="button" target={{ contactId: contact.id }} />
        {/* Issue 23 §5: whose customer this is (their new conversations go to them first). */}
        {!isGroup && <ContactOwnerField contactId={contact.id} contactName={contact.name} ownerId={contact.ownerId} />}
        {/* Issue 18: a second contact of this person (e.g. the other ninth-digit form) folds into another. */}
        {can(user, "contacts:merge") && (
          <Button variant="text" size="small" onClick={() => setMerging(true)}>
            {t("contacts.merge.action", { name: contact.name })}
          </Button>
        )}
        <MergeContactDialog duplicate={merging ? contact : null} onClose={() => setMerging(false)} />
        <LegalHoldControl target={{ contactId: contact.id }} />
        {/* Issue 22 §2: the customer's data on request (LGPD): download it, or erase it everywhere. */}
        {(can(user, "contacts:exportData") || can(user, "contacts:erase")) && !isGroup && (
          <Button variant="text" size="small" color="error" onClick={() => setDataOpen(true)}>
            {t("contactData.action")}
          </Button>
        )}
        <ContactDataDialog contact={dataOpen ? contact : null} onClose={() => setDataOpen(false)} />
      </Box>
      <ContactTags contactId={contact.id} name={contact.name} />
      {/* Issue 22 §3: consent answers and opt-outs (a group is nobody's to consent for). */}
      {!isGroup && <ContactConsent contactId={contact.id} />}
      <Box sx={{ px: 2, display: "flex", flexDirection: "column", gap: 1 }}>
        <Typography variant="subtitle2">{t("tickets.contactDrawer.extraInfo")}</Typography>
        {(contact.extraInfo ?? []).map((info) => (
          <Paper key={info.id} variant="outlined" sx={{ p: 1 }}>
            <Typography variant="subtitle2">{info.name}</Typography>
            <Typography variant="body2" sx={{ whiteSpace: "pre-wrap" }}>
              {info.value}
            </Typography>
          </Paper>
        ))}
      </Box>
    </Drawer>
  );
}
