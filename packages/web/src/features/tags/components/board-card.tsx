import DriveFileMoveOutlined from "@mui/icons-material/DriveFileMoveOutlined";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { BoardColumn, Tag, Ticket } from "@zapdesk/core";
import { memo, useState } from "react";
import { useTranslation } from "react-i18next";
import { pictureOf } from "../../../lib/capabilities";
import { ticketPreview } from "../../tickets/utils/ticket-preview";
import { TagChips } from "./tag-chip";

/** What a dragged card carries between columns. */
export const CARD_MIME = "application/x-zapdesk-card";

export interface ColumnInfo {
  key: BoardColumn;
  title: string;
  tag: Tag | null;
}

interface BoardCardProps {
  ticket: Ticket;
  column: BoardColumn;
  /** Every column, for the keyboard's "move to" menu. */
  columns: ColumnInfo[];
  busy: boolean;
  onOpen(ticketId: number): void;
  onMove(ticket: Ticket, from: BoardColumn, to: BoardColumn): void;
}

/** One ticket in one column: dragged to another column, or moved there from its menu. */
export const BoardCard = memo(function BoardCard({ ticket, column, columns, busy, onOpen, onMove }: BoardCardProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const targets = columns.filter((c) => c.key !== column);
  return (
    <Paper
      variant="outlined"
      draggable={!busy}
      data-ticket-id={ticket.id}
      aria-label={t("board.card", { name: ticket.contact.name, id: ticket.id })}
      role="listitem"
      onDragStart={(e) => {
        e.dataTransfer.setData(CARD_MIME, JSON.stringify({ ticketId: ticket.id, from: column }));
        e.dataTransfer.effectAllowed = "move";
      }}
      sx={{
        p: 1,
        display: "flex",
        gap: 1,
        alignItems: "flex-start",
        cursor: busy ? "progress" : "grab",
        opacity: busy ? 0.6 : 1,
        userSelect: "none",
      }}
    >
      <ButtonBase
        onClick={() => onOpen(ticket.id)}
        aria-label={t("board.open", { name: ticket.contact.name })}
        sx={{ flex: 1, minWidth: 0, display: "flex", gap: 1, justifyContent: "flex-start", textAlign: "left", borderRadius: 1 }}
      >
        <Avatar src={pictureOf(ticket.contact, ticket.whatsapp?.provider)} alt="" sx={{ width: 32, height: 32 }} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" noWrap sx={{ fontWeight: 500 }}>
            {ticket.contact.name}{" "}
            <Typography component="span" variant="caption" color="text.secondary">
              #{ticket.id}
            </Typography>
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {ticketPreview(ticket.lastMessage, t)}
          </Typography>
          {ticket.user && (
            <Typography variant="caption" color="primary" noWrap component="p">
              {ticket.user.name}
            </Typography>
          )}
          <TagChips tags={ticket.tags} max={4} wrap />
        </Box>
      </ButtonBase>
      <IconButton
        size="small"
        aria-label={t("board.moveTo", { name: ticket.contact.name })}
        aria-haspopup="menu"
        disabled={busy}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <DriveFileMoveOutlined fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {targets.map((target) => (
          <MenuItem
            key={String(target.key)}
            dense
            onClick={() => {
              setAnchor(null);
              onMove(ticket, column, target.key);
            }}
          >
            <ListItemIcon>
              <Box aria-hidden sx={{ width: 12, height: 12, borderRadius: "50%", bgcolor: target.tag?.color ?? "grey.400" }} />
            </ListItemIcon>
            <ListItemText primary={target.title} />
          </MenuItem>
        ))}
      </Menu>
    </Paper>
  );
});
