import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { z } from "zod";
import { ROLES, type Role } from "../../../db/enums";
import { ROLE_LABELS } from "./capabilities";
import type { StaffUser } from "./staff-access.server";
import { getSiteSettings } from "~/content/content.server";
import { enqueueStaffInviteEmail } from "~/features/accounts/invite-email.server";
import { wakeOutboxWorker } from "~/features/outbox/outbox.server";
import { insertAccountWithoutPassword } from "~/models/account.server";
import {
  deactivateAccount,
  listStaffMembers,
  lockActiveOwners,
  lockStaffRole,
  reactivateAccount,
  setStaffRole,
} from "~/models/staff.server";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { redirectWithSuccess } from "~/utils/toast.server";
import { isUuid } from "~/utils/uuid";

export const STAFF_PATH = "/admin-dashboard/staff";
export const STAFF_INTENTS = ["invite", "role", "deactivate", "reactivate"] as const;
export type StaffIntent = (typeof STAFF_INTENTS)[number];

export const STAFF_MESSAGES = {
  emailTaken: "That e-mail address already has an account. Invite staff with an address of their own.",
  lastOwner: "The business needs an active owner: make someone else owner first.",
  notStaff: "That account is not on the staff list.",
  self: "You cannot deactivate your own account.",
} as const;

const roleField = z.enum(ROLES, { errorMap: () => ({ message: "Choose a role" }) });

export const inviteSchema = z.object({
  email: z
    .string({ required_error: "Enter an e-mail address" })
    .trim()
    .max(320, "That address is too long")
    .email("Enter a valid e-mail address"),
  fullName: z
    .string({ required_error: "Enter their name" })
    .trim()
    .min(1, "Enter their name")
    .max(200, "That name is too long"),
  role: roleField,
});

const memberSchema = z.object({ userId: z.string().refine(isUuid, STAFF_MESSAGES.notStaff) });
const roleSchema = memberSchema.extend({ role: roleField });

export type StaffActionData = {
  intent: StaffIntent | null;
  userId?: string;
  result?: SubmissionResult<string[]>;
  toast: { type: "error"; message: string; description: string };
};

const refuse = (status: number, description: string, extra: Omit<StaffActionData, "toast">) =>
  json<StaffActionData>({ ...extra, toast: { type: "error", message: "Error", description } }, { status });

/** The Staff page: every staff account, its role and whether it can sign in. */
export async function loadStaffPage(viewer: StaffUser) {
  const members = await listStaffMembers();
  return {
    viewerId: viewer.id,
    roles: ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
    members: members.map((member) => ({
      id: member.id,
      name: member.fullName ?? member.email,
      email: member.email,
      role: member.role,
      roleLabel: ROLE_LABELS[member.role],
      active: member.deactivatedAt === null,
      twoStepOn: member.twoStepOn,
    })),
  };
}

class StaffChangeRefused extends Error {}

/**
 * The Staff page's forms (owner only: the route asks `requireStaff(…, "staff")` first). Every
 * change that could leave no active owner locks the owner rows first (decision 123).
 */
export async function handleStaffAction(request: Request, owner: StaffUser) {
  const formData = await request.formData().catch(() => null);
  if (!formData) return refuse(400, "That form could not be read", { intent: null });
  const rawIntent = formData.get("intent");
  const intent = STAFF_INTENTS.find((name) => name === rawIntent) ?? null;
  if (intent === "invite") return invite(formData, owner);
  if (intent === "role" || intent === "deactivate" || intent === "reactivate") {
    const submission = parseWithZod(formData, { schema: intent === "role" ? roleSchema : memberSchema });
    if (submission.status !== "success") {
      return refuse(400, "Please check the form", { intent, result: submission.reply() });
    }
    const { userId } = submission.value;
    if (intent === "deactivate" && userId === owner.id) return refuse(400, STAFF_MESSAGES.self, { intent, userId });
    try {
      const role = "role" in submission.value ? (submission.value.role as Role) : null;
      const description = await changeMember(intent, userId, role);
      log.info("staff.changed", { intent, userId, by: owner.id });
      return redirectWithSuccess(STAFF_PATH, { message: "Success", description });
    } catch (error) {
      if (error instanceof StaffChangeRefused) return refuse(409, error.message, { intent, userId });
      throw error;
    }
  }
  return refuse(400, "Unknown action", { intent: null });
}

async function changeMember(intent: "role" | "deactivate" | "reactivate", userId: string, role: Role | null) {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    // The owners first, then the member: every such change takes the locks in this order.
    const owners = await lockActiveOwners(trx);
    const member = await lockStaffRole(trx, userId);
    if (!member) throw new StaffChangeRefused(STAFF_MESSAGES.notStaff);
    const losesOwner =
      member.role === "owner" &&
      member.deactivated_at === null &&
      (intent === "deactivate" || (intent === "role" && role !== "owner"));
    if (losesOwner && owners.filter((id) => id !== userId).length === 0) {
      throw new StaffChangeRefused(STAFF_MESSAGES.lastOwner);
    }
    if (intent === "role") {
      await setStaffRole(trx, userId, role!);
      return `Role changed to ${ROLE_LABELS[role!]}`;
    }
    if (intent === "deactivate") {
      await deactivateAccount(trx, userId);
      return "Account deactivated: its sessions have ended";
    }
    await reactivateAccount(trx, userId);
    return "Account reactivated";
  });
}

async function invite(formData: FormData, owner: StaffUser) {
  const submission = parseWithZod(formData, { schema: inviteSchema });
  if (submission.status !== "success") {
    return refuse(400, "Please check the form", { intent: "invite", result: submission.reply() });
  }
  const { email, fullName, role } = submission.value;
  const settings = await getSiteSettings();
  const db = await getDb();
  const invitedAt = new Date();
  // The account, its role and its invitation commit together, or none of them.
  const userId = await db.transaction().execute(async (trx) => {
    const id = await insertAccountWithoutPassword(trx, { email, fullName });
    if (!id) return null;
    await setStaffRole(trx, id, role);
    await enqueueStaffInviteEmail(trx, {
      userId: id,
      to: email,
      name: fullName,
      businessName: settings.businessName,
      roleLabel: ROLE_LABELS[role],
      invitedAt,
    });
    return id;
  });
  if (!userId) {
    return refuse(409, STAFF_MESSAGES.emailTaken, {
      intent: "invite",
      result: submission.reply({ fieldErrors: { email: [STAFF_MESSAGES.emailTaken] } }),
    });
  }
  wakeOutboxWorker();
  log.info("staff.invited", { userId, role, by: owner.id });
  return redirectWithSuccess(STAFF_PATH, {
    message: "Success",
    description: `Invitation sent to ${email}`,
  });
}
