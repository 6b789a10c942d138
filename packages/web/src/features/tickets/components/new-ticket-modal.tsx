import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type Contact, contactInputSchema } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { translateValidation } from "../../../lib/i18n";
import { useContactLookup } from "../api/lookups";
import { createContact, useCreateTicket } from "../api/ticket-commands";

type Option = Contact | { add: string };
const isAdd = (option: Option): option is { add: string } => "add" in option;

/** Spec §2/§5: pick a contact (search from 3 characters) or add the typed name as a new one, then open a ticket. */
export function NewTicketModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [text, setText] = useState("");
  const [selected, setSelected] = useState<Contact | null>(null);
  const [draft, setDraft] = useState<{ name: string; number: string } | null>(null);
  const [draftError, setDraftError] = useState<Record<string, string | undefined>>({});
  const [saving, setSaving] = useState(false);
  const lookup = useContactLookup(text);
  const create = useCreateTicket();

  const close = () => {
    setText("");
    setSelected(null);
    setDraft(null);
    setDraftError({});
    onClose();
  };

  const options: Option[] = [...lookup.options];
  if (lookup.search.length >= 3 && !lookup.loading && text.trim()) options.push({ add: text.trim() });

  const submit = async () => {
    if (!user) return;
    setSaving(true);
    try {
      let contactId = selected?.id;
      if (draft) {
        const parsed = contactInputSchema.safeParse(draft);
        if (!parsed.success) {
          setDraftError(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), translateValidation(i.message)])));
          return;
        }
        contactId = (await createContact(draft)).id;
      }
      if (!contactId) return;
      await create.mutateAsync({ contactId, userId: user.id });
      close();
    } catch (error) {
      if (draft) toastError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="new-ticket-title">
      <DialogTitle id="new-ticket-title">{t("tickets.newTicket.title")}</DialogTitle>
      <DialogContent dividers>
        {draft ? (
          <Stack spacing={2}>
            <TextField
              label={t("tickets.newTicket.name")}
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              error={!!draftError.name}
              helperText={draftError.name}
            />
            <TextField
              label={t("tickets.newTicket.number")}
              value={draft.number}
              autoFocus
              placeholder="5513912344321"
              onChange={(e) => setDraft({ ...draft, number: e.target.value })}
              error={!!draftError.number}
              helperText={draftError.number}
            />
          </Stack>
        ) : (
          <Autocomplete<Option>
            options={options}
            filterOptions={(x) => x}
            loading={lookup.loading}
            value={selected}
            inputValue={text}
            onInputChange={(_e, value) => setText(value)}
            onChange={(_e, value) => {
              if (value && isAdd(value)) {
                setDraft({ name: value.add, number: "" });
              } else setSelected(value);
            }}
            getOptionLabel={(o) => (isAdd(o) ? t("tickets.newTicket.add", { name: o.add }) : o.name)}
            isOptionEqualToValue={(a, b) => !isAdd(a) && !isAdd(b) && a.id === b.id}
            noOptionsText={t("tickets.newTicket.noOptions")}
            renderOption={(props, o) => (
              <li {...props} key={isAdd(o) ? "add" : o.id}>
                {isAdd(o) ? t("tickets.newTicket.add", { name: o.add }) : `${o.name} (${o.number})`}
              </li>
            )}
            renderInput={(params) => (
              <TextField
                {...params}
                autoFocus
                label={t("tickets.newTicket.contact")}
                slotProps={{
                  ...params.slotProps,
                  input: {
                    ...params.slotProps.input,
                    endAdornment: (
                      <>
                        {lookup.loading && <CircularProgress size={20} />}
                        {params.slotProps.input.endAdornment}
                      </>
                    ),
                  },
                }}
              />
            )}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="inherit" disabled={saving}>
          {t("tickets.buttons.cancel")}
        </Button>
        <Button variant="contained" onClick={submit} disabled={saving || (!selected && !draft)}>
          {t("tickets.newTicket.ok")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
