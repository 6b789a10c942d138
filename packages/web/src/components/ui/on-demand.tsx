import { type ComponentType, lazy, type ReactNode, Suspense, useState } from "react";

/** A named export of a module loaded on first render: `lazyNamed(() => import("./x"), "X")`. */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  // biome-ignore lint/suspicious/noExplicitAny: lazy() needs a component type; the caller keeps the real one through M[K].
  return lazy(async () => ({ default: (await load())[name] as ComponentType<any> })) as M[K];
}

/**
 * Renders its children (usually a lazily loaded dialog) from the first time `when` is true on, so
 * the code is fetched only when it is wanted and a closing dialog still plays its transition.
 */
export function OnDemand({ when, children }: { when: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(when);
  if (when && !wanted) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
