import Autorenew from "@mui/icons-material/Autorenew";
import ContentCopy from "@mui/icons-material/ContentCopy";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { toast } from "../../../lib/toast";
import { useRotateApiToken } from "../api/rotate-api-token";

/** The API token, read-only: copy it, or (after a confirmation) replace it with a new one. */
export function ApiTokenField({ token, labelledBy }: { token: string; labelledBy: string }) {
  const { t } = useTranslation();
  const rotate = useRotateApiToken();
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <TextField
        id="userApiToken"
        size="small"
        value={token}
        sx={{ flex: 1, minWidth: 280 }}
        slotProps={{
          htmlInput: { readOnly: true, "aria-labelledby": labelledBy },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  aria-label={t("settings.settings.userApiToken.copy")}
                  disabled={!token}
                  onClick={async () => {
                    try {
                      await navigator.clipboard.writeText(token);
                      toast.success(t("settings.settings.userApiToken.copied"));
                    } catch {
                      toast.error(t("settings.settings.userApiToken.copyFailed"));
                    }
                  }}
                >
                  <ContentCopy />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <Button
        variant="outlined"
        color="warning"
        startIcon={<Autorenew />}
        disabled={rotate.isPending}
        onClick={() => setConfirming(true)}
      >
        {t("settings.settings.userApiToken.rotate")}
      </Button>
      <ConfirmDialog
        title={t("settings.settings.userApiToken.rotateTitle")}
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          rotate.mutate(undefined, { onSuccess: () => toast.success(t("settings.settings.userApiToken.rotated")) })
        }
      >
        {t("settings.settings.userApiToken.rotateBody")}
      </ConfirmDialog>
    </>
  );
}
