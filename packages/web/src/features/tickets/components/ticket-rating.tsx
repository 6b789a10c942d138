import Rating from "@mui/material/Rating";
import { useTranslation } from "react-i18next";

/** Issue 11 CSAT: the customer's 1–5 answer as stars, once the ticket is rated. */
export function TicketRating({ rating }: { rating: number | null | undefined }) {
  const { t } = useTranslation();
  if (!rating) return null;
  const label = t("csat.rating.label", { rating });
  return (
    <Rating
      value={rating}
      max={5}
      readOnly
      size="small"
      getLabelText={() => label}
      title={label}
      data-testid="ticket-rating"
      sx={{ verticalAlign: "middle", ml: 0.5 }}
    />
  );
}
