import { zodResolver } from "@hookform/resolvers/zod";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import { signupSchema } from "@zapdesk/core";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { FormTextField } from "../../../components/ui/form-text-field";
import { submitForm } from "../../../lib/form-errors";
import { usePublicSetting } from "../../../lib/queries/use-public-settings";
import { useSignup } from "../api/signup";
import { AuthCard } from "../components/auth-card";

export default function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signup = useSignup();
  const { value: userCreation, isLoading } = usePublicSetting("userCreation");
  const { control, handleSubmit, setError, formState } = useForm({
    resolver: zodResolver(signupSchema),
    defaultValues: { name: "", email: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    await submitForm({
      save: () => signup.mutateAsync(values),
      success: t("signup.toasts.success"),
      done: () => navigate("/login"),
      setError,
      fields: ["name", "email", "password"],
    });
  });

  const backToLogin = (
    <Link component={RouterLink} to="/login" variant="body2" sx={{ alignSelf: "flex-end" }}>
      {t("signup.buttons.login")}
    </Link>
  );

  return (
    <AuthCard title={t("signup.title")}>
      {isLoading ? (
        <Stack sx={{ alignItems: "center", mt: 3 }}>
          <CircularProgress aria-label={t("common.loading")} />
        </Stack>
      ) : userCreation !== "enabled" ? (
        <Stack spacing={2} sx={{ mt: 2 }}>
          <Alert severity="info">{t("backendErrors.ERR_USER_CREATION_DISABLED")}</Alert>
          {backToLogin}
        </Stack>
      ) : (
        <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} sx={{ mt: 2 }}>
          <FormTextField control={control} name="name" label={t("signup.form.name")} autoComplete="name" autoFocus fullWidth />
          <FormTextField control={control} name="email" label={t("signup.form.email")} autoComplete="email" fullWidth />
          <FormTextField
            control={control}
            name="password"
            label={t("signup.form.password")}
            autoComplete="new-password"
            password
            fullWidth
          />
          <Button type="submit" variant="contained" fullWidth disabled={formState.isSubmitting}>
            {t("signup.buttons.submit")}
          </Button>
          {backToLogin}
        </Stack>
      )}
    </AuthCard>
  );
}
