import { AUDIO_MIN_BYTES } from "@zapdesk/core";
import { useCallback, useEffect, useRef, useState } from "react";

export type RecorderState = "idle" | "recording";

interface Session {
  stream: MediaStream;
  context: AudioContext;
  processor: ScriptProcessorNode;
  chunks: Float32Array[];
  startedAt: number;
}

/**
 * Spec §4 "Audio recording": idle → recording (mm:ss) → send or cancel. The microphone's
 * samples are kept as PCM and encoded to mp3 on stop; recordings under 10000 bytes are dropped.
 */
export function useVoiceRecorder() {
  const [state, setState] = useState<RecorderState>("idle");
  const [elapsed, setElapsed] = useState(0);
  const session = useRef<Session | null>(null);

  const release = useCallback(() => {
    const current = session.current;
    session.current = null;
    if (!current) return;
    current.processor.disconnect();
    for (const track of current.stream.getTracks()) track.stop();
    current.context.close().catch(() => undefined);
  }, []);

  useEffect(() => release, [release]);

  useEffect(() => {
    if (state !== "recording") return;
    const timer = setInterval(() => {
      if (session.current) setElapsed(Math.floor((Date.now() - session.current.startedAt) / 1000));
    }, 250);
    return () => clearInterval(timer);
  }, [state]);

  const start = useCallback(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const context = new AudioContext();
    await context.resume().catch(() => undefined);
    const source = context.createMediaStreamSource(stream);
    const processor = context.createScriptProcessor(4096, 1, 1);
    const chunks: Float32Array[] = [];
    processor.onaudioprocess = (event) => chunks.push(new Float32Array(event.inputBuffer.getChannelData(0)));
    source.connect(processor);
    processor.connect(context.destination);
    session.current = { stream, context, processor, chunks, startedAt: Date.now() };
    setElapsed(0);
    setState("recording");
  }, []);

  const cancel = useCallback(() => {
    release();
    setState("idle");
  }, [release]);

  /** The mp3 file, or null when the recording is too short to keep. The encoder loads on first use. */
  const stop = useCallback(async (): Promise<File | null> => {
    const current = session.current;
    if (!current) return null;
    const { chunks, context } = current;
    const sampleRate = context.sampleRate;
    release();
    setState("idle");
    const { encodeMp3 } = await import("../utils/mp3");
    const blob = encodeMp3(chunks, sampleRate);
    if (blob.size < AUDIO_MIN_BYTES) return null;
    return new File([blob], `audio-${Date.now()}.mp3`, { type: "audio/mpeg" });
  }, [release]);

  return { state, elapsed, start, stop, cancel };
}

export const formatElapsed = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
