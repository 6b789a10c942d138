import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode, UIEvent } from "react";

interface PageContainerProps {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  /** Scroll handler of the content area (infinite lists). */
  onScroll?(event: UIEvent<HTMLDivElement>): void;
}

export function PageContainer({ title, actions, children, onScroll }: PageContainerProps) {
  return (
    <Box component="section" sx={{ display: "flex", flexDirection: "column", height: "100%", p: 2, gap: 2 }} aria-label={title}>
      <Stack direction="row" sx={{ alignItems: "center", flexWrap: "wrap", gap: 1 }}>
        <Typography variant="h5" component="h1" color="primary" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {actions && (
          <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap", alignItems: "center" }}>
            {actions}
          </Stack>
        )}
      </Stack>
      <Paper variant="outlined" sx={{ flex: 1, overflowY: "auto", p: 1 }} onScroll={onScroll} data-testid="page-content">
        {children}
      </Paper>
    </Box>
  );
}
