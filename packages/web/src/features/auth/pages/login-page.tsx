import { zodResolver } from "@hookform/resolvers/zod";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import { loginSchema } from "@zapdesk/core";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { FormTextField } from "../../../components/ui/form-text-field";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { usePublicSetting } from "../../../lib/queries/use-public-settings";
import { toast } from "../../../lib/toast";
import { AuthCard } from "../components/auth-card";

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const { value: userCreation } = usePublicSetting("userCreation");
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await login(values);
      toast.success(t("auth.toasts.success"));
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <AuthCard title={t("login.title")}>
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} sx={{ mt: 2 }}>
        <FormTextField control={control} name="email" label={t("login.form.email")} autoComplete="email" autoFocus fullWidth />
        <FormTextField
          control={control}
          name="password"
          label={t("login.form.password")}
          autoComplete="current-password"
          password
          fullWidth
        />
        <Button type="submit" variant="contained" fullWidth disabled={formState.isSubmitting}>
          {t("login.buttons.submit")}
        </Button>
        {userCreation === "enabled" && (
          <Link component={RouterLink} to="/signup" variant="body2" sx={{ alignSelf: "flex-end" }}>
            {t("login.buttons.register")}
          </Link>
        )}
      </Stack>
    </AuthCard>
  );
}
