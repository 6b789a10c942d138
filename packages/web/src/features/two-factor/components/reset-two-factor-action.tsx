import PhonelinkErase from "@mui/icons-material/PhonelinkErase";
import IconButton from "@mui/material/IconButton";
import type { User } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { toast } from "../../../lib/toast";
import { useResetTwoFactor } from "../api/two-factor";

/** Issue 22 §5: an admin turns off another user's two-factor sign-in (a lost phone); the audit trail records it. */
export function ResetTwoFactorAction({ user }: { user: Pick<User, "id" | "name"> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const reset = useResetTwoFactor();
  return (
    <>
      <IconButton
        size="small"
        aria-label={`${t("twoFactor.reset")}: ${user.name}`}
        title={t("twoFactor.reset")}
        onClick={() => setOpen(true)}
      >
        <PhonelinkErase />
      </IconButton>
      <ConfirmDialog
        open={open}
        title={t("twoFactor.resetTitle", { name: user.name })}
        onClose={() => setOpen(false)}
        onConfirm={
          () =>
            // Not mutate's own onSuccess: the reset refetches the list, which drops this button (the
            // user has no two-factor left), and an unmounted mutate skips its callbacks: no toast.
            reset
              .mutateAsync(user.id)
              .then(() => toast.success(t("twoFactor.resetDone", { name: user.name })))
              .catch(() => {}) // the error was shown by the mutation cache's handler
        }
      >
        {t("twoFactor.resetMessage", { name: user.name })}
      </ConfirmDialog>
    </>
  );
}
