// Lets the browser tests see the generic error page. Answers 404 unless the server was started
// with ENABLE_TEST_ROUTES=1 (only the test harness does that).
export async function loader() {
  if (process.env.ENABLE_TEST_ROUTES !== "1") throw new Response("Not Found", { status: 404 });
  throw new Error("Deliberate error for the error page test");
}

export default function TestError() {
  return null;
}
