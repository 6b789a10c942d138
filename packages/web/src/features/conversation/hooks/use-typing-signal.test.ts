import { renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { TYPING_IDLE_MS, TYPING_REFRESH_MS, useTypingSignal } from "./use-typing-signal";

describe("the typing signal", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it("says composing at once, at most every few seconds while typing goes on, then paused after a pause", () => {
    const emit = vi.fn();
    const { result } = renderHook(() => useTypingSignal(7, true, emit));
    result.current.typed();
    result.current.typed();
    expect(emit.mock.calls).toEqual([[7, "composing"]]);
    // Keystrokes every second for a while: one more composing once the refresh time passed.
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(1000);
      result.current.typed();
    }
    expect(emit.mock.calls).toEqual([
      [7, "composing"],
      [7, "composing"],
    ]);
    expect(TYPING_REFRESH_MS).toBeLessThanOrEqual(3000);
    vi.advanceTimersByTime(TYPING_IDLE_MS - 1);
    expect(emit).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1);
    expect(emit).toHaveBeenLastCalledWith(7, "paused");
    expect(emit).toHaveBeenCalledTimes(3);
  });

  it("stops at once on send or blur, and only when composing was said", () => {
    const emit = vi.fn();
    const { result } = renderHook(() => useTypingSignal(7, true, emit));
    result.current.stop();
    expect(emit).not.toHaveBeenCalled();
    result.current.typed();
    result.current.stop();
    expect(emit.mock.calls).toEqual([
      [7, "composing"],
      [7, "paused"],
    ]);
    vi.advanceTimersByTime(TYPING_IDLE_MS * 2);
    expect(emit).toHaveBeenCalledTimes(2);
  });

  it("says paused when the agent leaves the ticket while typing", () => {
    const emit = vi.fn();
    const { result, unmount } = renderHook(() => useTypingSignal(7, true, emit));
    result.current.typed();
    unmount();
    expect(emit).toHaveBeenLastCalledWith(7, "paused");
  });

  it("emits nothing where the connection cannot show typing", () => {
    const emit = vi.fn();
    const { result } = renderHook(() => useTypingSignal(7, false, emit));
    result.current.typed();
    vi.advanceTimersByTime(TYPING_IDLE_MS);
    result.current.stop();
    expect(emit).not.toHaveBeenCalled();
  });
});
