import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { isMac, SHORTCUTS, type ShortcutInfo } from "./shortcut-table";

const GROUPS: ShortcutInfo["group"][] = ["general", "list", "ticket"];

/** `?` (issue 13): every shortcut, translated, grouped as the agent uses them. */
export function ShortcutsOverlay({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const modLabel = isMac() ? "⌘" : "Ctrl";
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="shortcuts-title">
      <DialogTitle id="shortcuts-title">{t("flow.shortcuts.title")}</DialogTitle>
      <DialogContent dividers>
        {GROUPS.map((group) => (
          <Box key={group} component="section" aria-labelledby={`shortcuts-${group}`} sx={{ mb: 2 }}>
            <Typography id={`shortcuts-${group}`} variant="overline" component="h3" color="text.secondary">
              {t(`flow.shortcuts.groups.${group}`)}
            </Typography>
            <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2, rowGap: 1, m: 0 }}>
              {SHORTCUTS.filter((s) => s.group === group).map((shortcut) => (
                <Fragment key={shortcut.id}>
                  <Box component="dt" sx={{ display: "flex", gap: 0.5, justifyContent: "flex-end" }}>
                    {shortcut.keys.map((key) => (
                      <Box
                        key={key}
                        component="kbd"
                        sx={{
                          px: 0.75,
                          minWidth: 24,
                          textAlign: "center",
                          border: 1,
                          borderColor: "divider",
                          borderBottomWidth: 2,
                          borderRadius: 1,
                          fontFamily: "monospace",
                          fontSize: 13,
                        }}
                      >
                        {key === "mod"
                          ? modLabel
                          : key === "Esc"
                            ? t("flow.keys.esc")
                            : key === "Enter"
                              ? t("flow.keys.enter")
                              : key}
                      </Box>
                    ))}
                  </Box>
                  <Box component="dd" sx={{ m: 0 }}>
                    {t(`flow.shortcuts.${shortcut.id}`)}
                  </Box>
                </Fragment>
              ))}
            </Box>
          </Box>
        ))}
        <Typography variant="body2" color="text.secondary">
          {t("flow.shortcuts.typingNote")}
        </Typography>
      </DialogContent>
    </Dialog>
  );
}
