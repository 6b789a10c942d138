import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { isAlive } from "./holder.js";

/** The command line of a process (Linux: /proc; elsewhere: ps), or undefined when it is gone. */
function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    try {
      return execFileSync("ps", ["-p", String(pid), "-o", "command="], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      return undefined;
    }
  }
}

/** The parent pid of a process, or undefined. */
export function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    try {
      return Number(
        execFileSync("ps", ["-p", String(pid), "-o", "ppid="], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
      );
    } catch {
      return undefined;
    }
  }
}

/**
 * The pid in postmaster.pid is a live postmaster of this very folder, not a recycled pid now
 * used by another program (which must never be signalled).
 */
export function isOurPostmaster(pid: number, pgdata: string): boolean {
  if (!isAlive(pid)) return false;
  const command = commandOf(pid);
  return Boolean(command?.includes("postgres") && command.includes(pgdata));
}

/** Fast shutdown of a postmaster nobody owns any more; immediate shutdown if it does not finish within a minute. */
export async function stopOrphan(pid: number): Promise<void> {
  const gone = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (!isAlive(pid)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return !isAlive(pid);
  };
  const send = (signal: NodeJS.Signals) => {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  };
  send("SIGINT");
  if (await gone(60_000)) return;
  send("SIGQUIT");
  if (await gone(30_000)) return;
  throw new Error(`The PostgreSQL left running (pid ${pid}) does not stop; stop it by hand.`);
}
