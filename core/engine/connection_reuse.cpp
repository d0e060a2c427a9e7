#include "core/engine/connection_reuse.h"

#include <curl/curl.h>

namespace plumbline::engine {

void ConnectionReuse::apply(Transfer& t, size_t open, size_t busy) {
  if (t.easy == nullptr) return;  // the native HTTP/1.1 client takes an idle connection in O(1)
  curl_easy_setopt(t.easy, CURLOPT_FRESH_CONNECT, wantsFresh(open, busy) ? 1L : 0L);
}

}  // namespace plumbline::engine
