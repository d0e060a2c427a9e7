#include "core/engine/connection_reuse.h"

#include <curl/curl.h>

namespace plumbline::engine {

void ConnectionReuse::apply(Transfer& t, size_t open, size_t busy) {
  curl_easy_setopt(t.easy, CURLOPT_FRESH_CONNECT, wantsFresh(open, busy) ? 1L : 0L);
}

}  // namespace plumbline::engine
