import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Contact } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useContactSearch, useMergeContact } from "../api/merge-contact";

/**
 * Issue 18: an admin folds a duplicate contact of one person (a Brazilian number saved with and
 * without the ninth digit, a customer who wrote from two numbers) into the contact that stays.
 * The one that stays keeps its number: pick the form WhatsApp uses, the one the customer writes from.
 */
export function MergeContactDialog({
  duplicate,
  onClose,
}: {
  duplicate: Pick<Contact, "id" | "name" | "number"> | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [keep, setKeep] = useState<Contact | null>(null);
  const lookup = useContactSearch(text);
  const merge = useMergeContact();

  const close = () => {
    setText("");
    setKeep(null);
    onClose();
  };
  const submit = () => {
    if (!duplicate || !keep) return;
    merge.mutate({ keepId: keep.id, duplicateId: duplicate.id }, { onSuccess: close });
  };

  return (
    <Dialog open={!!duplicate} onClose={close} fullWidth maxWidth="sm" aria-labelledby="merge-contact-title">
      <DialogTitle id="merge-contact-title">{t("contacts.merge.title", { name: duplicate?.name ?? "" })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="body2">{t("contacts.merge.help")}</Typography>
          <Autocomplete<Contact>
            options={lookup.options.filter((c) => c.id !== duplicate?.id && !c.isGroup)}
            filterOptions={(x) => x}
            loading={lookup.loading}
            value={keep}
            inputValue={text}
            onInputChange={(_e, value) => setText(value)}
            onChange={(_e, value) => setKeep(value)}
            getOptionLabel={(c) => `${c.name} (${c.number})`}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            noOptionsText={t("contacts.merge.noOptions")}
            renderInput={(params) => <TextField {...params} autoFocus label={t("contacts.merge.keep")} />}
          />
          {duplicate && keep && (
            <Typography variant="body2" role="status">
              {t("contacts.merge.summary", {
                duplicate: duplicate.name,
                duplicateNumber: duplicate.number,
                keep: keep.name,
                keepNumber: keep.number,
              })}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="inherit" disabled={merge.isPending}>
          {t("contacts.merge.cancel")}
        </Button>
        <Button variant="contained" color="warning" onClick={submit} disabled={!keep || merge.isPending}>
          {t("contacts.merge.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
