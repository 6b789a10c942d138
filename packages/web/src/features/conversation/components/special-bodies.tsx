import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { talkToContact } from "../api/message-commands";
import { isSafeImage, isSafeLink, parseLocation, parseVCard } from "../utils/message-parts";

/** Spec §2: a location is image, link and optional description, never the raw body. */
export function LocationBody({ body }: { body: string }) {
  const { t } = useTranslation();
  const { image, link, description } = parseLocation(body);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 0.5, maxWidth: 260 }}>
      {isSafeImage(image) && <Box component="img" src={image} alt={t("conversation.location.map")} sx={{ width: "100%" }} />}
      {isSafeLink(link) && (
        <Link href={link} target="_blank" rel="noopener noreferrer">
          {t("conversation.location.open")}
        </Link>
      )}
      {description && <Typography variant="body2">{description}</Typography>}
    </Box>
  );
}

/** A shared contact: name, number and 'talk', which resolves the contact and opens a ticket. */
export function VCardBody({ body }: { body: string }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const contact = parseVCard(body);
  const talk = async () => {
    if (!user) return;
    setBusy(true);
    try {
      const ticket = await talkToContact(contact, user.id);
      navigate(`/tickets/${ticket.id}`);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ minWidth: 200 }}>
      <Box sx={{ display: "flex", gap: 1, alignItems: "center", mb: 1 }}>
        <Avatar>{contact.name.slice(0, 1)}</Avatar>
        <Box>
          <Typography sx={{ fontWeight: 500 }}>{contact.name}</Typography>
          <Typography variant="body2">{contact.number}</Typography>
        </Box>
      </Box>
      <Divider />
      <Button fullWidth size="small" onClick={talk} disabled={busy || !contact.number}>
        {t("conversation.vcard.talk")}
      </Button>
    </Box>
  );
}
