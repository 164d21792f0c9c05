import { redirect } from "next/navigation";

/** The workflow list is the home page. */
export default function HomePage() {
  redirect("/workflows");
}
