import type { ExpressionBuilder } from "kysely";
import type { Database } from "../../db/schema";

/**
 * Whether the `users` row in scope holds a staff role (owner, office or technician; decision
 * 123): the one way every query tells staff from customers (a customer is a user without one).
 */
export const hasStaffRole = (eb: ExpressionBuilder<Database, "users">) =>
  eb.exists(eb.selectFrom("user_roles").select("user_roles.role").whereRef("user_roles.user_id", "=", "users.id"));

/** A customer: a user without a staff role. A deactivated staff account stays staff. */
export const isNotStaff = (eb: ExpressionBuilder<Database, "users">) => eb.not(hasStaffRole(eb));

/** The staff role of the `users` row in scope (one at most: user_roles_one_role_idx), or null. */
export const staffRoleOf = (eb: ExpressionBuilder<Database, "users">) =>
  eb.selectFrom("user_roles").select("user_roles.role").whereRef("user_roles.user_id", "=", "users.id").limit(1);
