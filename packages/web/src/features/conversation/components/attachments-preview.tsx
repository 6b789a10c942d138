import CloseIcon from "@mui/icons-material/Close";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";

function Preview({ file, onRemove }: { file: File; onRemove(): void }) {
  const { t } = useTranslation();
  const url = useMemo(() => (file.type.startsWith("image/") ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return (
    <Box sx={{ position: "relative", border: 1, borderColor: "divider", borderRadius: 1, p: 0.5, width: 110 }}>
      {url ? (
        <Box component="img" src={url} alt={file.name} sx={{ width: 100, height: 80, objectFit: "cover", display: "block" }} />
      ) : (
        <Box sx={{ width: 100, height: 80, display: "grid", placeItems: "center" }}>
          <InsertDriveFileIcon fontSize="large" color="action" />
        </Box>
      )}
      <Typography variant="caption" noWrap component="p">
        {file.name}
      </Typography>
      <IconButton
        size="small"
        aria-label={t("conversation.input.removeFile", { name: file.name })}
        onClick={onRemove}
        sx={{ position: "absolute", top: 0, right: 0, bgcolor: "background.paper" }}
      >
        <CloseIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

export function AttachmentsPreview({ files, onRemove }: { files: File[]; onRemove(index: number): void }) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", p: 1 }} aria-label={t("conversation.input.attachments")} role="group">
      {files.map((file, index) => (
        <Preview key={`${file.name}-${file.size}-${file.lastModified}`} file={file} onRemove={() => onRemove(index)} />
      ))}
    </Box>
  );
}
