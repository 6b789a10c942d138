import AddIcon from "@mui/icons-material/Add";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import ScheduleIcon from "@mui/icons-material/Schedule";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ScheduleButton, ScheduleDialog } from "../../schedules";

interface ComposerExtrasProps {
  ticketId: number;
  /** A phone's width: the secondary actions fold into one menu so the text box keeps its room. */
  narrow: boolean;
  disabled: boolean;
  sign: boolean;
  onSignChange(sign: boolean): void;
  onAttach(): void;
}

/** Attach, schedule and sign: beside the text box on a wide screen, behind one "+" on a phone. */
export function ComposerExtras({ ticketId, narrow, disabled, sign, onSignChange, onAttach }: ComposerExtrasProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [scheduling, setScheduling] = useState(false);

  if (!narrow) {
    return (
      <>
        <IconButton size="small" aria-label={t("conversation.input.attach")} onClick={onAttach}>
          <AttachFileIcon />
        </IconButton>
        <ScheduleButton target={{ ticketId }} disabled={disabled} size="small" />
        <FormControlLabel
          label={t("conversation.input.sign")}
          labelPlacement="top"
          sx={{ mx: 0.5, "& .MuiFormControlLabel-label": { fontSize: 12 } }}
          control={<Switch size="small" checked={sign} onChange={(e) => onSignChange(e.target.checked)} />}
        />
      </>
    );
  }

  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        size="small"
        aria-label={t("conversation.input.more")}
        aria-haspopup="menu"
        aria-expanded={anchor ? "true" : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <AddIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close}>
        <MenuItem
          onClick={() => {
            close();
            onAttach();
          }}
        >
          <ListItemIcon>
            <AttachFileIcon fontSize="small" />
          </ListItemIcon>
          {t("conversation.input.attach")}
        </MenuItem>
        <MenuItem
          disabled={disabled}
          onClick={() => {
            close();
            setScheduling(true);
          }}
        >
          <ListItemIcon>
            <ScheduleIcon fontSize="small" />
          </ListItemIcon>
          {t("schedules.action")}
        </MenuItem>
        <MenuItem role="menuitemcheckbox" aria-checked={sign} onClick={() => onSignChange(!sign)}>
          <ListItemIcon>
            <Checkbox size="small" edge="start" checked={sign} tabIndex={-1} disableRipple sx={{ p: 0 }} />
          </ListItemIcon>
          {t("conversation.input.sign")}
        </MenuItem>
      </Menu>
      {scheduling && <ScheduleDialog open onClose={() => setScheduling(false)} target={{ ticketId }} />}
    </>
  );
}
