import type { Theme } from "@mui/material/styles";

/**
 * A table's row-actions column (its header cell and each row's): pinned to the right edge of the
 * scrolling table, so on a narrow screen (390 px) the actions stay on screen while the other
 * columns scroll under them (issue 20). Opaque, with a line on its left and the container's padding
 * covered on its right, or the scrolled text would show around it.
 */
export const ROW_ACTIONS_SX = {
  position: "sticky",
  right: 0,
  zIndex: 1,
  bgcolor: "background.paper",
  whiteSpace: "nowrap",
  boxShadow: (theme: Theme) => `-1px 0 0 ${theme.palette.divider}, 8px 0 0 ${theme.palette.background.paper}`,
} as const;
