import { lazy, Suspense } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { screenPermission } from "../features/shortcuts/screens";
import { MainLayout } from "./layout/main-layout";
import { Loading, PermissionRoute, PrivateRoute, PublicRoute } from "./routes/guards";

type PageModule = { default: React.ComponentType };

/**
 * A page loaded when first shown. `load` stays on the element, so what a URL will show can be
 * fetched ahead of the visit (the web tests do, see testing/render.tsx).
 */
function LazyPage({
  component: Component,
}: {
  component: React.LazyExoticComponent<React.ComponentType>;
  load: () => Promise<PageModule>;
}) {
  return (
    <Suspense fallback={<Loading />}>
      <Component />
    </Suspense>
  );
}

// Pages are split per route so the first paint carries only the shell and the login screen.
const page = (load: () => Promise<PageModule>) => <LazyPage component={lazy(load)} load={load} />;

/** An administration screen behind the permission the screens table gives it (the one its server routes check). */
function adminScreen(path: string, load: () => Promise<PageModule>): RouteObject[] {
  const permission = screenPermission(path);
  if (!permission) throw new Error(`${path} is not an administration screen`);
  return [{ element: <PermissionRoute permission={permission} />, children: [{ path, element: page(load) }] }];
}

export const routes: RouteObject[] = [
  {
    element: <PublicRoute />,
    children: [
      { path: "/login", element: page(() => import("../features/auth/pages/login-page")) },
      { path: "/signup", element: page(() => import("../features/auth/pages/signup-page")) },
    ],
  },
  {
    element: <PrivateRoute />,
    children: [
      {
        element: <MainLayout />,
        children: [
          { path: "/", element: page(() => import("../features/dashboard/pages/dashboard-page")) },
          { path: "/tickets/:ticketId?", element: page(() => import("./routes/tickets-page")) },
          { path: "/contacts", element: page(() => import("../features/contacts/pages/contacts-page")) },
          { path: "/quickAnswers", element: page(() => import("../features/quick-answers/pages/quick-answers-page")) },
          { path: "/board", element: page(() => import("../features/tags/pages/board-page")) },
          { path: "/macros", element: page(() => import("../features/macros/pages/macros-page")) },
          ...adminScreen("/users", () => import("../features/users/pages/users-page")),
          ...adminScreen("/connections", () => import("../features/connections/pages/connections-page")),
          ...adminScreen("/Queues", () => import("../features/queues/pages/queues-page")),
          ...adminScreen("/tags", () => import("../features/tags/pages/tags-page")),
          ...adminScreen("/closing-reasons", () => import("../features/closing-reasons/pages/closing-reasons-page")),
          ...adminScreen("/Settings", () => import("../features/settings/pages/settings-page")),
          ...adminScreen("/webhooks", () => import("../features/webhooks/pages/webhooks-page")),
          ...adminScreen("/audit", () => import("../features/privacy/pages/audit-page")),
          ...adminScreen("/automation", () => import("../features/automation-rules/pages/automation-rules-page")),
          { path: "/ZDGChatbot", element: page(() => import("../features/tools/pages/chatbot-page")) },
          { path: "/ZDGAgendamento", element: page(() => import("../features/tools/pages/schedule-page")) },
          { path: "/ZDG", element: page(() => import("../features/tools/pages/bulk-messages-page")) },
          { path: "/ZDGMedia", element: page(() => import("../features/tools/pages/bulk-media-page")) },
          { path: "/ZDGGroups", element: page(() => import("../features/tools/pages/groups-page")) },
          { path: "/InstaDirect", element: page(() => import("../features/tools/pages/insta-direct-page")) },
          { path: "/SMS", element: page(() => import("../features/tools/pages/sms-page")) },
          { path: "/VoiceCall", element: page(() => import("../features/tools/pages/voice-call-page")) },
          { path: "/ZDGHistorico", element: page(() => import("../features/tools/pages/history-page")) },
          { path: "/ZDGComunidade", element: page(() => import("../features/tools/pages/sales-page")) },
          { path: "/ZDGPassaporte", element: page(() => import("../features/tools/pages/community-page")) },
        ],
      },
    ],
  },
  { path: "*", element: <Navigate to="/" replace /> },
];

export const createRouter = () => createBrowserRouter(routes);
