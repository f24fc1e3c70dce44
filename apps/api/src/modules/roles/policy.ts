import { type CeilingRefusal, ceilingRefusal, type Grantor, type Power } from "@parlons/contract";
import { AppError } from "../../lib/errors";

/** The 403 a ceiling refusal answers: granting a role or permissions, or acting on an account. */
function ceilingError(refusal: CeilingRefusal, subject: "grant" | "account"): AppError {
  if (refusal.reason === "admin-only") {
    return new AppError(
      403,
      "ABOVE_YOUR_PERMISSIONS",
      "Only an administrator can create, promote, demote, change or disable an administrator account",
    );
  }
  const list = refusal.permissions.join(", ");
  return new AppError(
    403,
    "ABOVE_YOUR_PERMISSIONS",
    subject === "grant"
      ? `You cannot grant permissions you do not hold: ${list}`
      : `This account holds permissions you do not hold: ${list}`,
  );
}

/**
 * The grant ceiling (`ceilingRefusal` in the contract) as the API enforces it: staff grant only
 * roles and permissions they hold (`"grant"`), act only on accounts holding nothing more than
 * they do (`"account"`), and only an ADMIN acts on an ADMIN. Refused: 403 ABOVE_YOUR_PERMISSIONS.
 */
export function assertWithinCeiling(grantor: Grantor, power: Power, subject: "grant" | "account"): void {
  const refusal = ceilingRefusal(grantor, power);
  if (refusal) throw ceilingError(refusal, subject);
}
