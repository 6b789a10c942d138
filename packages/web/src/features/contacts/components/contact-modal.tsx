import { zodResolver } from "@hookform/resolvers/zod";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { can, contactInputSchema } from "@zapdesk/core";
import { useEffect, useMemo } from "react";
import { type Resolver, useFieldArray, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { useAuth } from "../../../lib/auth";
import { isLidNumber } from "../../../lib/capabilities";
import { submitForm } from "../../../lib/form-errors";
import { useContact } from "../api/get-contacts";
import { useSaveContact } from "../api/save-contact";

interface ContactModalProps {
  open: boolean;
  onClose(): void;
  contactId?: number;
}

interface ContactForm {
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
}

const EMPTY: ContactForm = { name: "", number: "", email: "", extraInfo: [] };

/**
 * A number kept as it is (a WhatsApp LID contact has no phone number to edit; only an admin changes
 * a saved contact's number) is neither validated nor sent: the update keeps it.
 */
const keepNumberResolver: Resolver<ContactForm> = (values, context, options) => {
  const { number: _kept, ...rest } = values;
  const validate = zodResolver(contactInputSchema.omit({ number: true }) as never) as unknown as Resolver<typeof rest>;
  return validate(rest, context, options as never) as never;
};

export function ContactModal({ open, onClose, contactId }: ContactModalProps) {
  const { t } = useTranslation();
  const save = useSaveContact();
  const { data: contact, isLoading } = useContact(open ? contactId : undefined);
  const { user: me } = useAuth();
  const hiddenNumber = !!contactId && isLidNumber(contact?.number);
  // Replies go to the number: the server lets only admins change it (and records who did).
  const lockedNumber = !!contactId && !hiddenNumber && !can(me, "contacts:changeNumber");
  const keepNumber = hiddenNumber || lockedNumber;
  const resolver = useMemo(() => (keepNumber ? keepNumberResolver : (zodResolver(contactInputSchema) as never)), [keepNumber]);
  const { control, handleSubmit, reset, setError, formState } = useForm<ContactForm>({ resolver, defaultValues: EMPTY });
  // keyName keeps react-hook-form's own key away from the extra info's real `id`.
  const extraInfo = useFieldArray({ control, name: "extraInfo", keyName: "fieldKey" });

  useEffect(() => {
    if (!open) return;
    reset(
      contactId && contact
        ? {
            name: contact.name,
            number: contact.number,
            email: contact.email ?? "",
            extraInfo: (contact.extraInfo ?? []).map(({ id, name, value }) => ({ id, name, value })),
          }
        : EMPTY,
    );
  }, [open, contactId, contact, reset]);

  const onSubmit = handleSubmit(async (values) => {
    await submitForm({
      save: () => save.mutateAsync({ id: contactId, input: values }),
      success: t("contactModal.success"),
      done: () => onClose(),
      setError,
      fields: ["name", "number", "email", "extraInfo"],
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="contact-modal"
      i18nKey="contactModal"
      editing={!!contactId}
      loading={!!(contactId && isLoading)}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <Typography variant="subtitle1">{t("contactModal.form.mainInfo")}</Typography>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          <FormTextField control={control} name="name" label={t("contactModal.form.name")} autoFocus fullWidth />
          {hiddenNumber ? (
            <TextField
              id="field-number"
              label={t("contactModal.form.number")}
              value={t("contacts.lid.hidden")}
              helperText={t("contacts.lid.help")}
              disabled
              fullWidth
            />
          ) : lockedNumber ? (
            <TextField
              id="field-number"
              label={t("contactModal.form.number")}
              value={contact?.number ?? ""}
              helperText={t("contactModal.form.numberAdminOnly")}
              disabled
              fullWidth
            />
          ) : (
            <FormTextField
              control={control}
              name="number"
              label={t("contactModal.form.number")}
              placeholder="5513912344321"
              helperText={t("contactModal.form.numberHint")}
              fullWidth
            />
          )}
        </Stack>
        <FormTextField
          control={control}
          name="email"
          label={t("contactModal.form.email")}
          placeholder={t("contactModal.form.emailPlaceholder")}
          fullWidth
        />
        <Typography variant="subtitle1">{t("contactModal.form.extraInfo")}</Typography>
        {extraInfo.fields.map((field, index) => (
          <Stack key={field.fieldKey} direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
            <FormTextField
              control={control}
              name={`extraInfo.${index}.name`}
              label={t("contactModal.form.extraName")}
              size="small"
              fullWidth
            />
            <FormTextField
              control={control}
              name={`extraInfo.${index}.value`}
              label={t("contactModal.form.extraValue")}
              size="small"
              fullWidth
            />
            <IconButton
              aria-label={t("contactModal.buttons.removeExtraInfo", { index: index + 1 })}
              onClick={() => extraInfo.remove(index)}
            >
              <DeleteOutline />
            </IconButton>
          </Stack>
        ))}
        <Button variant="outlined" onClick={() => extraInfo.append({ name: "", value: "" })} sx={{ alignSelf: "flex-start" }}>
          {t("contactModal.buttons.addExtraInfo")}
        </Button>
      </Stack>
    </FormDialog>
  );
}
