/** `npm run admin:reset-password -- <email> [--two-factor]` (see reset-password.ts). */
import { openForMaintenance } from "../backup/maintenance.js";
import { configOrExit } from "../server.js";
import { resetPassword } from "./reset-password.js";

async function main(args: string[]) {
  const email = args.find((a) => !a.startsWith("--"));
  if (!email) {
    console.error("Usage: npm run admin:reset-password -- <email> [--two-factor]");
    process.exit(2);
  }
  const config = configOrExit();
  const database = await openForMaintenance(config);
  try {
    const reset = await resetPassword(database.db, email, { twoFactor: args.includes("--two-factor") });
    if (!reset) {
      console.error(`No user has the email ${email} in ${config.databaseUrl ? "DATABASE_URL" : config.dataDir}.`);
      process.exitCode = 1;
      return;
    }
    // Printed once, on purpose, like the first start's generated password.
    console.log(`\n  User:     ${reset.name} <${email}>\n  Password: ${reset.password}\n`);
    console.log("  Every session of this user has ended: sign in with the new password.");
    if (reset.twoFactorWasOn) console.log("  Two-factor sign-in is off for this user (set it up again from the user menu).");
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`\nreset-password failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
