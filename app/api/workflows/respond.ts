export { errorResponse, mapError, parseBody } from "@/lib/http/respond";
