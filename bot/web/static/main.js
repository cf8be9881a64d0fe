// The board page: the seat's token comes in the link's fragment (#t=…), which no request carries;
// it is kept only in memory and sent as an Authorization header.

import { Board } from "./board.js";
import { put } from "./dom.js";
import { browserLocale, texts } from "./i18n.js";

const token = new URLSearchParams(location.hash.slice(1)).get("t");
if (token) {
  window.board = new Board(token);
  window.board.start();
} else {
  const box = document.getElementById("message");
  box.className = "message error";
  box.setAttribute("role", "alert");
  put(box, texts(browserLocale())("noToken"));
}
