import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import { can, type Permission } from "@zapdesk/core";
import { Navigate, Outlet } from "react-router";
import { useAuth } from "../../lib/auth";

function Loading() {
  return (
    <Box sx={{ display: "grid", placeItems: "center", height: "100vh" }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}

/** Spec §4: unauthenticated users on private routes go to /login. */
export function PrivateRoute() {
  const { user, loading } = useAuth();
  if (loading) return <Loading />;
  return user ? <Outlet /> : <Navigate to="/login" replace />;
}

/** Authenticated users on public routes go to /. */
export function PublicRoute() {
  const { user, loading } = useAuth();
  if (loading) return <Loading />;
  return user ? <Navigate to="/" replace /> : <Outlet />;
}

/**
 * An administration screen, for whom holds the permission its server routes check (the drawer hides
 * it from others and the server refuses them; here we just send them home).
 */
export function PermissionRoute({ permission }: { permission: Permission }) {
  const { user } = useAuth();
  return can(user, permission) ? <Outlet /> : <Navigate to="/" replace />;
}

export { Loading };
