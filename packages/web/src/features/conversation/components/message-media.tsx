import DownloadIcon from "@mui/icons-material/Download";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { MEDIA_STATE, type Message } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchMediaBlob } from "../../../lib/api-client";

/** The media as an object URL fetched with the session's token; revoked when the bubble goes. */
function useMediaUrl(mediaUrl: string | null, enabled: boolean) {
  const [state, setState] = useState<{ url?: string; error?: boolean }>({});
  useEffect(() => {
    if (!mediaUrl || !enabled) return;
    let objectUrl: string | undefined;
    let cancelled = false;
    fetchMediaBlob(mediaUrl)
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setState({ url: objectUrl });
      })
      .catch(() => !cancelled && setState({ error: true }));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [mediaUrl, enabled]);
  return state;
}

/** Media WhatsApp sent but that is not stored (yet): downloading, refused for its size, or failing and retried. */
function MediaState({ error }: { error: string }) {
  const { t } = useTranslation();
  if (error === MEDIA_STATE.pending) {
    return (
      <Box role="status" sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <CircularProgress size={16} aria-hidden />
        <Typography variant="caption">{t("conversation.media.pending")}</Typography>
      </Box>
    );
  }
  const key =
    error === MEDIA_STATE.tooLarge
      ? "tooLarge"
      : error === MEDIA_STATE.failed
        ? "failed"
        : error === MEDIA_STATE.notInOldSystem
          ? "notInOldSystem"
          : error === MEDIA_STATE.removedByRetention
            ? "removedByRetention"
            : ("unavailable" as const);
  return (
    <Typography
      variant="caption"
      color={key === "failed" ? "warning.dark" : key === "removedByRetention" ? "text.secondary" : "error"}
      component="p"
    >
      {t(`conversation.media.${key}`)}
    </Typography>
  );
}

export function MessageMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  const inline = ["image", "sticker", "audio", "video"].includes(message.mediaType);
  const { url, error } = useMediaUrl(message.mediaUrl, inline);
  const [downloading, setDownloading] = useState(false);

  if (!message.mediaUrl) return message.mediaError ? <MediaState error={message.mediaError} /> : null;

  if (!inline) {
    const download = async () => {
      setDownloading(true);
      try {
        const blob = await fetchMediaBlob(message.mediaUrl!);
        const href = URL.createObjectURL(blob);
        const anchor = document.createElement("a");
        anchor.href = href;
        anchor.download = message.mediaName ?? "file";
        anchor.click();
        setTimeout(() => URL.revokeObjectURL(href), 1000);
      } finally {
        setDownloading(false);
      }
    };
    return (
      <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={download} disabled={downloading}>
        {message.mediaName ?? t("conversation.media.download")}
      </Button>
    );
  }

  if (error) return <Typography variant="caption">{t("conversation.media.unavailable")}</Typography>;
  if (!url) return <CircularProgress size={20} aria-label={t("common.loading")} />;
  if (message.mediaType === "audio") {
    return (
      // Voice notes and customer audio come without captions.
      // The browser's player is ~300 px wide: it shrinks with the bubble on a phone instead of overflowing it.
      <Box
        component="audio"
        controls
        src={url}
        aria-label={t("conversation.media.audio")}
        sx={{ display: "block", width: 300, maxWidth: "100%" }}
      >
        <track kind="captions" />
      </Box>
    );
  }
  if (message.mediaType === "video") {
    return (
      <Box
        component="video"
        controls
        src={url}
        sx={{ maxWidth: 280, maxHeight: 280 }}
        aria-label={t("conversation.media.video")}
      />
    );
  }
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      <Box
        component="img"
        src={url}
        alt={message.mediaName ?? t("conversation.media.image")}
        sx={{ maxWidth: 250, maxHeight: 250, borderRadius: 1, display: "block" }}
      />
    </a>
  );
}
