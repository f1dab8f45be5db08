import { getReviewRequest, listCustomerFeedback } from "~/models/review-request.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";

/** The latest private notes shown on the admin's customer page. */
const NOTES_SHOWN = 5;

/** What the admin's customer page shows of reviews: the request's day, and the private notes. */
export async function customerFeedbackView(customerId: string) {
  const db = await getDb();
  const [request, notes] = await Promise.all([
    getReviewRequest(db, customerId),
    listCustomerFeedback(db, customerId, NOTES_SHOWN),
  ]);
  return {
    reviewRequestedOn: request ? formatBusinessDate(request.requested_at) : null,
    notes: notes.map((note) => ({
      id: note.id,
      message: note.message,
      sentAt: formatBusinessDateTime(note.created_at),
    })),
  };
}
export type CustomerFeedbackView = Awaited<ReturnType<typeof customerFeedbackView>>;
