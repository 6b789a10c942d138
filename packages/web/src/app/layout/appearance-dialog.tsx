import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { type ThemePreference, useAppearance } from "../../lib/appearance";
import type { Density } from "../../lib/theme";

const THEMES: ThemePreference[] = ["system", "light", "dark"];
const DENSITIES: Density[] = ["comfortable", "compact"];

/** User menu → Appearance (issue 13 item 8): theme and density, applied at once and kept in this browser. */
export function AppearanceDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const appearance = useAppearance();
  const themeLabel = useId();
  const densityLabel = useId();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t("appearance.title")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 0.5 }}>
          <Stack spacing={1}>
            <Typography id={themeLabel} variant="subtitle2">
              {t("appearance.theme")}
            </Typography>
            <ToggleButtonGroup
              exclusive
              fullWidth
              color="primary"
              aria-labelledby={themeLabel}
              value={appearance.theme}
              onChange={(_e, value: ThemePreference | null) => value && appearance.update({ theme: value })}
            >
              {THEMES.map((value) => (
                <ToggleButton key={value} value={value}>
                  {t(`appearance.${value}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            <Typography variant="caption" color="text.secondary">
              {t("appearance.systemHelp")}
            </Typography>
          </Stack>
          <Stack spacing={1}>
            <Typography id={densityLabel} variant="subtitle2">
              {t("appearance.density")}
            </Typography>
            <ToggleButtonGroup
              exclusive
              fullWidth
              color="primary"
              aria-labelledby={densityLabel}
              value={appearance.density}
              onChange={(_e, value: Density | null) => value && appearance.update({ density: value })}
            >
              {DENSITIES.map((value) => (
                <ToggleButton key={value} value={value}>
                  {t(`appearance.${value}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            <Typography variant="caption" color="text.secondary">
              {t("appearance.densityHelp")} {t("appearance.stored")}
            </Typography>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
