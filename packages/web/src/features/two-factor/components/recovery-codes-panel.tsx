import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";

/** The ten recovery codes, shown this once: copy them, download them, then go on. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { t } = useTranslation();
  const text = `${t("twoFactor.recoveryFileTitle")}\n\n${codes.join("\n")}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      toast.success(t("twoFactor.recoveryCopied"));
    } catch {
      toast.error(t("common.copyFailed"));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "zapdesk-recovery-codes.txt";
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return (
    <Stack spacing={2}>
      <Alert severity="warning">{t("twoFactor.recoveryOnce")}</Alert>
      <Box
        component="ol"
        aria-label={t("twoFactor.recoveryTitle")}
        sx={{ fontFamily: "monospace", fontSize: "1.05rem", columns: 2, m: 0, pl: 4 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap" }}>
        <Button onClick={copy}>{t("twoFactor.recoveryCopy")}</Button>
        <Button onClick={download}>{t("twoFactor.recoveryDownload")}</Button>
      </Stack>
      <Button variant="contained" onClick={onDone}>
        {t("twoFactor.recoverySaved")}
      </Button>
    </Stack>
  );
}
