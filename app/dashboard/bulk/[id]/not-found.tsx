import { NoSuchJob } from "./no-such-job";

export default function JobNotFound() {
  return <NoSuchJob />;
}
