/**
 * What reads URLs a person typed or uploaded, in one module that pages load after they have drawn
 * (hooks/use-url-reader.ts): the URL rules bring tr46's IDNA tables and the list reader Papa Parse, the heaviest
 * scripts the pages ran, and only a paste, a file or an alias needs them.
 */
export { formatOfFile, parseUrlList } from "./parse-urls.ts";
export { parseCountUrl } from "../../../lib/urls/count-url.ts";
export { parseUserUrl } from "../../../lib/urls/user-url.ts";
