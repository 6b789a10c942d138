import { zodResolver } from "@hookform/resolvers/zod";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import Stack from "@mui/material/Stack";
import { can, PROFILES, type User, userCreateSchema, userUpdateSchema } from "@zapdesk/core";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { QueueSelect } from "../../../components/queue-select";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { useAuth } from "../../../lib/auth";
import { submitForm } from "../../../lib/form-errors";
import { UserCapacityField } from "../../routing/auto-assign-fields";
import { useSaveUser } from "../api/save-user";

interface UserModalProps {
  open: boolean;
  onClose(): void;
  /** The user being edited; none to create one. */
  user?: User | null;
}

interface UserForm {
  name: string;
  email: string;
  password: string;
  profile: "admin" | "user";
  queueIds: number[];
}

const FIELDS = ["name", "email", "password", "profile", "queueIds"] as const;

export function UserModal({ open, onClose, user }: UserModalProps) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const save = useSaveUser();
  const editing = !!user;
  const { control, handleSubmit, reset, setError, formState } = useForm<UserForm>({
    // Same core schemas as the server: creating needs a password, editing keeps it when left empty.
    resolver: zodResolver(editing ? userUpdateSchema : userCreateSchema) as never,
    defaultValues: { name: "", email: "", password: "", profile: "user", queueIds: [] },
  });

  useEffect(() => {
    if (!open) return;
    reset({
      name: user?.name ?? "",
      email: user?.email ?? "",
      password: "",
      profile: user?.profile ?? "user",
      queueIds: user?.queues.map((q) => q.id) ?? [],
    });
  }, [open, user, reset]);

  const onSubmit = handleSubmit(async (values) => {
    const input = { ...values };
    // Agents may not change profile or queues (spec §6): leave them out rather than risk a 403.
    if (!can(me, "user-modal:editProfile")) delete (input as Partial<UserForm>).profile;
    if (!can(me, "user-modal:editQueues")) delete (input as Partial<UserForm>).queueIds;
    await submitForm({
      save: () => save.mutateAsync({ id: user?.id, input }),
      success: t("userModal.success"),
      done: () => onClose(),
      setError,
      fields: FIELDS,
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="user-modal"
      i18nKey="userModal"
      editing={editing}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          <FormTextField control={control} name="name" label={t("userModal.form.name")} autoFocus fullWidth />
          <FormTextField
            control={control}
            name="password"
            label={t("userModal.form.password")}
            password
            autoComplete="new-password"
            fullWidth
          />
        </Stack>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          <FormTextField control={control} name="email" label={t("userModal.form.email")} autoComplete="off" fullWidth />
          {can(me, "user-modal:editProfile") && (
            <Controller
              control={control}
              name="profile"
              render={({ field }) => (
                <FormControl fullWidth>
                  <InputLabel id="user-profile-label">{t("userModal.form.profile")}</InputLabel>
                  <Select {...field} labelId="user-profile-label" label={t("userModal.form.profile")}>
                    {PROFILES.map((p) => (
                      <MenuItem key={p} value={p}>
                        {t(`userModal.form.profiles.${p}`)}
                      </MenuItem>
                    ))}
                  </Select>
                </FormControl>
              )}
            />
          )}
        </Stack>
        {can(me, "user-modal:editQueues") && (
          <Controller
            control={control}
            name="queueIds"
            render={({ field }) => <QueueSelect value={field.value} onChange={field.onChange} />}
          />
        )}
        {user && <UserCapacityField userId={user.id} />}
      </Stack>
    </FormDialog>
  );
}
