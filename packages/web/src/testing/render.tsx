import { render, waitFor } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { createMemoryRouter, MemoryRouter, matchRoutes, RouterProvider } from "react-router";
import { AppProviders } from "../app/providers";
import { routes } from "../app/router";
import { useAuth } from "../lib/auth";
import { createQueryClient } from "../lib/query-client";

/**
 * The whole app at a given URL, as a user would meet it. The code of the pages the URL shows is
 * loaded first: a first visit's wait for it (seconds when the machine is busy, as the test
 * transforms the page) belongs to no test's 20 s wait for what the page then shows.
 */
export async function renderApp(url: string) {
  const matched = matchRoutes(routes, url) ?? [];
  await Promise.all(
    matched.map(({ route }) => (route.element as ReactElement<{ load?: () => Promise<unknown> }> | undefined)?.props.load?.()),
  );
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const result = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}

/**
 * What the app's route guard does before it shows a page: nothing until the start-up refresh has
 * answered. A component rendered alone would otherwise first meet a signed-out user, and what it
 * shows only to some (an admin's Edit button, an editable number) would come a moment later, after
 * a test on a loaded machine had already looked (CI saw both: macros-page, contact-modal).
 */
function AfterSignIn({ children, onSettled }: { children: ReactNode; onSettled: () => void }) {
  const { loading } = useAuth();
  if (loading) return null;
  onSettled();
  return children;
}

/**
 * One component inside the real providers (theme, i18n, query cache, auth, toasts), shown once the
 * signed-in user is known, as under the app's routes: it resolves when the component is on the page.
 * `rerender` gives it new props inside the same providers and cache.
 */
export async function renderWithProviders(ui: ReactNode) {
  const queryClient = createQueryClient();
  let shown = false;
  const settled = () => {
    shown = true;
  };
  const wrap = (node: ReactNode) => (
    <AppProviders queryClient={queryClient}>
      <MemoryRouter>
        <AfterSignIn onSettled={settled}>{node}</AfterSignIn>
      </MemoryRouter>
    </AppProviders>
  );
  const result = render(wrap(ui));
  await waitFor(() => {
    if (!shown) throw new Error("the start-up sign-in has not answered");
  });
  return { ...result, rerender: (next: ReactNode) => result.rerender(wrap(next)) };
}
