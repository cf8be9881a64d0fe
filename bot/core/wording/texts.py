"""Every sentence the bot shows to players, in one place (so wording is consistent and
reviewable). This is the English source; each sentence becomes a :class:`bot.core.wording.locales.Text` that
remembers its name, so the reply that sends it shows the catalogue's translation
(``bot/core/wording/locales/<locale>.json``, section ``texts``) to a reader in that language."""

from __future__ import annotations

from engine.expansions import finesse as _finesse

# -- refusals ---------------------------------------------------------------------------------

NO_GAME = "There is no Project L game in this channel. Start one with `/projectl table new`."
CHANNEL_BUSY = (
    "This channel already has a Project L game. Finish it, or ask the host to `/projectl table cancel` it, "
    "before starting another."
)
NOT_STARTED = "The game has not started yet: the host presses **Start** in the lobby."
ALREADY_STARTED = "That game has already started, so nobody can join or leave now."
START_ALREADY = "That game has already started."
LEAVE_STARTED = "The game has already started. You can leave the lobby only before the start."
ALREADY_SEATED = "You are already at this table."
GAME_FULL = "This table is full ({limit} players)."
NOT_IN_LOBBY = "You are not at this table."
NOT_IN_GAME = "You are not playing in this game. You can still look: `/projectl status`, `/projectl mat`."
NOT_IN_FINISHED_GAME = ("You did not play in this game, and it is over: `/projectl-games replay` steps "
                        "through it, turn by turn.")
NO_LONGER_IN_GAME = ("You are no longer in this game (you left, or the table removed you): you have no more "
                     "turns to play. You can still look: `/projectl status`.")
NOT_YOUR_TURN = "It is not your turn: {name} is playing. Only the current player can act."
CHOICE_IS_OTHERS = "That choice is {name}'s to make: only they can answer it. Nothing was changed."
NOT_YOUR_TURN_BOTH = "It is not your turn: {names} are playing. Only they can act now."
GAME_OVER = "This game is over."
HOST_CANNOT_LEAVE = "You are the host: use `/projectl table cancel` to close the table instead of leaving."
HOST_ONLY_START = "Only the host can start the game."
HOST_ONLY_AI = "Only the host can add AI players."
HOST_ONLY_CANCEL = "Only the host or someone who can manage this channel can cancel the game."
NEED_PLAYERS = "At least {n} players are needed to start."
STALE_GAME = "That button belongs to a game that is no longer open here."
STALE_BUTTON = (
    "That button is out of date: the game has moved on since it was shown. Nothing was changed."
)
NOT_YOUR_BUTTON = "That button is for {name}. Use your own commands or buttons."
FORGED_BUTTON = "That button is not valid. Nothing was changed."
MASTER_SAME_PUZZLE = "Your Master already has a piece on {card}: one piece per puzzle."
MASTER_EMPTY = "Your Master has no placements yet: add some with `/projectl play master-add`."
AMBASSADOR_EMPTY = "Your Ambassador action has no placements yet: choose a puzzle and a piece first."
GHOST_HOW = "Write the split as '<ghost> to <pieces>', e.g. 'P5 to 1 O4' (the list shows the legal ones)."
BAD_DIFFICULTY = "Difficulty is normal, hard or unbeatable."
BAD_POLICY = "Unknown AI kind. Choose one of: {names}."
WATCH_SOLO_ONLY = "Watching an AI play is for Solo tables: in the base game, add AI seats from the lobby."
NOT_A_GUILD = "Project L games are played in server channels, not in direct messages."
GAME_UNREADABLE = (
    "This channel's game (#{id}) could not be read from storage, so it is paused and nothing was "
    "changed. Games in other channels are not affected; the bot's operator has been told."
)
UNEXPECTED = (
    "Sorry, something went wrong on my side and nothing was changed. The error has been logged; "
    "please try again."
)
FAILED_AFTER_COMMIT = (
    "Your action stands (it is saved), but something went wrong on my side after it. The error has "
    "been logged; `/projectl status` shows the table."
)
IMAGE_MISSING = "(The image could not be drawn this time.)"
STORAGE_FAULT = {
    "full": "The bot's storage is full — nothing was changed; tell the server admin.",
    "locked": (
        "The bot's database is locked by another program — nothing was changed; try again in a "
        "minute, and tell the server admin if it lasts."
    ),
    "unreachable": (
        "The bot cannot reach its database right now, so this may not have been saved; try again "
        "in a minute (`/projectl status` shows where the game stands), and tell the server admin "
        "if it lasts."
    ),
}
"""What a player is told when a storage fault (bot/core/storage/faults.py) stopped their request."""
STORAGE_FAULT_AFTER_COMMIT = {
    "full": (
        "Your action stands (it is saved), but then the bot's storage became full, so what follows "
        "it may be missing; tell the server admin."
    ),
    "locked": (
        "Your action stands (it is saved), but then the bot's database was locked by another "
        "program, so what follows it may be missing; tell the server admin if it lasts."
    ),
    "unreachable": (
        "Your action stands (it is saved), but then the bot lost its database, so what follows it "
        "may be missing; tell the server admin if it lasts."
    ),
}
"""The same faults when they struck after the player's change was committed."""
CANNOT_POST = (
    "Your move is saved, but I may not post in this channel. Please ask an admin to give me Send "
    "Messages and Attach Files here; `/projectl status` shows the table meanwhile."
)
CANNOT_POST_DECISION = (
    "It is saved, but I may not post in this channel, so the table has not been told. Please ask an "
    "admin to give me Send Messages and Attach Files here; `/projectl status` shows the table meanwhile."
)
NO_SUCH_PLAYER = "{name} is not playing in this game."
NO_SUCH_SEAT = "There is no seat {seat} at this table: its seats are 1 to {count}."
PERMISSION_NAMES: dict[str, str] = {
    "send_messages": "Send Messages", "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files", "embed_links": "Embed Links",
    "create_public_threads": "Create Public Threads",
}
"""The permissions the bot may lack, as Discord's settings name them in each language."""
MISSING_PERMISSIONS = (
    "I can't show the table here: this channel doesn't give me the {names} permission. Ask an "
    "admin to allow it (Server Settings → Roles, or the channel's permissions). Nothing was changed."
)
THREAD_NOT_HERE = (
    "A new thread can be opened from a text channel. Here, just run `/projectl table new` without "
    "`thread`: the game lives in this thread (or forum post)."
)
THREAD_DEFAULT_NAME = "Project L"
TABLE_IN_THREAD = "Your table is open in {thread}: invite the players there."
THREAD_LEFT_BEHIND = ("I could not delete the thread {thread} I had opened for this table (that needs the "
                      "**Manage Threads** permission): it is empty, so please delete it.")
COMMAND_LIST_CHANGED = (
    "The command list has just changed — try again in a minute. (Your Discord app still shows an "
    "older version of this command; nothing was changed.)"
)
OPTION_NOT_ACCEPTED = ("What was sent for `{name}` is not something this option takes: nothing was "
                       "changed. Pick the option from the command's own list and try again.")
"""A forged option: the wrong kind, out of range, not one of the choices (bot/discord/options.py)."""
NOT_A_PUZZLE_SLOT = "{text} is not a puzzle on offer. Pick one from the list, e.g. `white 3`."
TABLE_DECISION_ONLY = (
    "`{action}` is a table decision, not a move: skips and removals come from a vote after the turn "
    "clock (`/projectl table vote`), the turn clock itself, or the host's `/projectl table replace`. "
    "Nothing was changed."
)
NO_PLACEMENTS = "{piece} does not fit anywhere on {card} right now."
TOO_MANY_PLACEMENTS = (
    "{count} placements fit; type part of the cells in the `cells` option to narrow the list, "
    "or give the cells directly."
)

# -- names --------------------------------------------------------------------------------------
# (issue 18, pt-play: AI seats, the mastermind, pieces and rows, as sentences name them)

AI_SEAT_NAME = "{policy} AI {number}"
REPLACED_NAME = "{policy} AI (for {name})"
POLICY_NAMES: dict[str, str] = {"random": "Random", "greedy": "Easy", "medium": "Medium",
                                "strong": "Strong", "ladder_strong": "Strong", "expert": "Expert"}
"""Each AI level by the name the lobby's buttons give it ("Add Easy AI" seats "Easy AI 1")."""
MASTERMIND_NAME = "The mastermind"
SEAT_NUMBER = "Player {number}"
AND = " and "
NONE = "none"
COLOURS: dict[str, str] = {"white": "white", "black": "black"}
CARD_ID: dict[str, str] = {"W": "{card}", "B": "{card}"}
"""A white or black card id (W13, B02) as a reader sees it in a sentence: the id alone in English;
a language whose readers would misread the letter (pt-BR: B is *branco*) adds the colour in words,
``W13 branco``. The id itself never changes, so a typed id means one card in every language
(issue 31, item 14).
Applied by bot.core.wording.locales to every field that is a card id or a list of them."""
COLOUR_TITLES: dict[str, str] = {"white": "White", "black": "Black"}
SHAPE_NAMES: dict[str, str] = {
    "1": "monomino", "2": "domino", "I3": "straight tromino", "L3": "bent tromino",
    "I4": "straight tetromino", "O4": "square tetromino", "T4": "T tetromino", "L4": "L tetromino",
    "S4": "S tetromino", "P5": "P pentomino", "U5": "U pentomino", "L5": "L pentomino",
}
SHAPE_LABEL = "{code} ({name})"
A_PIECE = "a {piece}"
AN_PIECE = "an {piece}"
GAIN_REASONS: dict[str, str] = {"level1": "level1", "upgrade": "upgrade", "reward": "reward",
                                "level-up": "level-up", "ghost": "ghost"}

# -- events (bot/core/wording/event_texts.py) ----------------------------------------------------------------
# What happened, as the turn posts, replies and the log tell it: the same English words as
# engine/events.py, picked by bot/core/wording/event_texts.py. (issue 18, pt-play)

EVENT_TOOK_ROW = "{name} took puzzle {card} from the {colour} row."
EVENT_TOOK_DECK = "{name} took puzzle {card} from the top of the {colour} deck."
EVENT_TOOK_SOLO_DECK = "{name} took puzzle {card} from the top of the deck."
EVENT_TOOK_GRID = "{name} took puzzle {card} from grid position {slot}."
EVENT_REVEALED_ROW = "Puzzle {card} was revealed in the {colour} row (position {slot})."
EVENT_REVEALED_GRID = "Puzzle {card} was revealed in the grid (position {slot})."
EVENT_DECK_EMPTY = "The {colour} deck is empty."
EVENT_SOLO_DECK_EMPTY = "The puzzle deck is empty."
EVENT_WHITE_RENEWED = (
    "The white deck ran out: every player banked the points of their completed white cards, and "
    "those {cards} cards were shuffled into a new white deck."
)
EVENT_END_TRIGGERED = (
    "The end of the game is triggered: round {round} is finished, then round {last_round} is the last."
)
EVENT_END_TRIGGERED_THIS_ROUND = "The end of the game is triggered: round {round} is the last."
EVENT_PIECE_GAINED = "{name} took {piece} ({reason})."
EVENT_PIECE_INSTEAD = (
    "{name} took {piece} ({reason}) instead of {wanted}, which the reserve has run out of."
)
EVENT_DECISION = "{name} must choose: {prompt} (choose {options})."
EVENT_PIECE_RETURNED = "{name} returned {piece} to the reserve."
EVENT_PIECE_PLACED = "{name} placed {piece} on {card} at {cells}."
EVENT_PIECE_PLACED_FINISHING = "{name} placed {piece} on {card} at {cells} (Finishing Touch, -1 point)."
EVENT_COMPLETED = "{name} completed {card} for {points} pt."
EVENT_COMPLETED_FINISHING = "{name} completed {card} for {points} pt during Finishing Touches (no reward)."
EVENT_COMPLETED_HIDDEN = "{name} completed a puzzle (score piles are hidden until the end)."
EVENT_RECYCLED = "The {colour} row ({cards}) went under its deck."
EVENT_TURN_STARTED = "Round {round}: {name}'s turn."
EVENT_FINISHING_STARTED = (
    "The last round is over: Finishing Touches begin (each piece placed costs 1 point)."
)
EVENT_FINISHING_DONE = "{name} is done with Finishing Touches."
EVENT_MASTERMIND_TOOK = "The mastermind took {card} ({points} pt) from grid position {position}."
EVENT_LOCKS_RELEASED = (
    "Every column was locked: the mastermind removed one lock piece from above each column and "
    "took nothing this turn."
)
EVENT_LOCKS_MOVED = "Lock pieces moved onto column {column}; locks per column now {counts}."
EVENT_LOCK_TAKEN = "A lock piece from column {column} went to the mastermind's supply."
EVENT_TURN_SKIPPED = "{name}'s turn was skipped."
EVENT_PLAYER_LEFT = "{name} left the game; their pieces went back to the reserve."
EVENT_PLAYER_LEFT_PUZZLES = (
    "{name} left the game; their pieces went back to the reserve and their unfinished puzzles "
    "({cards}) left play."
)
EVENT_GAME_WON = "Game over: {names} wins."
EVENT_GAME_SHARED = "Game over: {names} share the victory."
EVENT_GHOST_SPLIT = "{name} split a ghost {ghost} into {pieces}."
EVENT_LEVELLED_UP = "{name} levelled up {give} to {take}."
EVENT_LEVEL_UP_DECLINED = "{name} declined a level-up."
EVENT_AMBASSADOR_FLIPPED = "{name} flipped Ambassador card {card} for an Ambassador action."
EVENT_LEVEL_UP_LOST = (
    "{name}'s level-up was lost: no piece in their supply can go one level up with what is left in "
    "the reserve."
)
EVENT_MARKERS_PASSED = (
    "Round {round}: {white} holds the White marker (left rows), {black} the Black marker (right "
    "rows); both play now."
)
EVENT_CREDIT_EARNED = "{name}: +1 credit: {reason} (Finesse: {tile})."
EVENT_CREDIT_RETURNED_ACTIVE = (
    "The credit bank was empty: {name} (most credits) returned an active credit."
)
EVENT_CREDIT_RETURNED_INACTIVE = (
    "The credit bank was empty: {name} (most credits) returned an inactive credit."
)
EVENT_CREDITS_TO_BANK = "{name}'s {count} credits went back to the bank."
EVENT_CREDIT_TO_BANK = "{name}'s {count} credit went back to the bank."
EVENT_CREDIT_ACTIVATED = "{name}'s {count} new credit became active."
EVENT_CREDITS_ACTIVATED = "{name}'s {count} new credits became active."
EVENT_ACTION_INSERTED = "{name} paid 2 credits to insert an extra action."
EVENT_CREDIT_PAID_FINISHING = "{name} paid that Finishing Touch with a credit instead of a point."
EVENT_TILE_LEFT = "The Finesse tile {tile} left play."
EVENT_TILE_LEFT_LIVE = "The Finesse tile {tile} left play. Live now: {live}."
# A face-down tile (rounds 1-2) is never revealed, not even as it leaves: no identity to name.
EVENT_FACE_DOWN_TILE_LEFT = "A face-down Finesse tile left play."
EVENT_FACE_DOWN_TILE_LEFT_LIVE = "A face-down Finesse tile left play. Live now: {live}."

ACTION_LINE = "**{name}**: `{action}`"
CLIP_EARLIER = "… (earlier moves: `/projectl status`)"
WINNER = "Winner: {names}."
FINAL_SCORE = "{name}: {total} pt ({details})"
FINAL_FROM_ONE_PUZZLE = "{points} from 1 puzzle"
FINAL_FROM_PUZZLES = "{points} from {count} puzzles"
FINAL_FINISHING = "-{points} finishing"
FINAL_UNFINISHED = "-{points} unfinished"
FINAL_MASTERMIND = "The mastermind: {points} pt"

DECISION_SUBSTITUTE = "the reserve has no {piece} left for {why}: pick another piece"
SUBSTITUTE_FOR: dict[str, str] = {"reward": "your reward", "level1": "your level-1 piece"}
DECISION_LEVEL_UP = (
    "Level-up reward: raise one piece of your supply exactly one level (a level-4 piece may "
    "become a ghost), or decline"
)

# -- Finesse, as sentences tell it (bot/core/wording/event_texts.py) -----------------------------------------
# The tiles' names and rules and why a credit was earned: the same English as
# engine/expansions/finesse.py, built from the tile instead of its English. (issue 18, pt-play)

FINESSE_TILE = "{id} ({label})"
FINESSE_TILE_NAMES: dict[str, str] = {
    "unfinished": "unfinished puzzles", "master": "Master", "complete": "complete a puzzle",
    "take": "take a puzzle", "types": "types", "types-small": "small types",
    "types-tetro": "tetromino types", "place-small": "place small pieces",
    "place-tetro": "place tetrominoes", "upgrade": "Upgrade",
}
FINESSE_PACK_NAMES: dict[str, str] = {
    "no_unfinished": "no unfinished puzzle", "recycle": "Recycle", "every_level": "every level",
    "insert": "Insert", "all_different": "no two alike", "no_small": "no small pieces",
}
FINESSE_PACK_LINE = "{colour}: {text}"
FINESSE_PACK_RULES: dict[str, str] = {
    "no_unfinished": "+4 credits at the end of your turn if you have no unfinished puzzle.",
    "recycle": "+2 credits each time you Recycle, at once.",
    "every_level": "+4 credits at the end of your turn if you have a piece of every level 1-4 (ghosts do "
                   "not count), in your supply or on your unfinished puzzles.",
    "insert": "+1 credit after each Insert, at once.",
    "all_different": "+4 credits at the end of your turn if no two of your pieces (supply and unfinished "
                     "puzzles) have the same shape.",
    "no_small": "+3 credits at the end of your turn if none of your pieces (supply and unfinished "
                "puzzles) is of level 1 or 2.",
}
FINESSE_RULE_LINE = "{colour}: +1 credit {what}, {when}."
FINESSE_TILE_COLOURS: dict[str, str] = {"pink": "Pink", "blue": "Blue"}
FINESSE_WHEN: dict[str, str] = {"pink": "at once", "blue": "at the end of your turn"}
FINESSE_WHAT: dict[str, str] = {
    "place": "for each piece you place that is one of {shapes}",
    "pieces": "for each {shapes} in your supply or on your unfinished puzzles",
    "unfinished": "for each unfinished puzzle you have",
    "master": "for each piece you place with Master",
    "complete": "for each puzzle you complete",
    "take": "for each puzzle you take",
    "types": "for each of {shapes} you own (supply or unfinished puzzles)",
    "upgrade": "for each Upgrade action (taking a level-1 piece counts) and each level-up arrow used",
}
OR = " or "
FINESSE_REASONS: dict[str, str] = dict(_finesse.REASONS)
"""Why a Finesse credit was earned, in the engine's own English (the sentences are its, so they
are not written twice); their translations are keyed here like every other sentence."""

# -- play, continued (bot/discord/cogs/play.py, bot/discord/views.py) ----------------------------------------
# Autocomplete lists, the placement menu, the buttons under a post. (issue 18, pt-play)

MY_MAT_BUTTON = "My mat"
PLACE_WHERE = "Where does {piece} go on {card}?"
MASTER_CLEAR_BUTTON = "Clear"
CHOICE_SIDE = "{where} ({side})"
CHOICE_TAKE = "{where}: {card} · {points} pt · reward {reward} · {size} cells"
SIDES: dict[str, str] = {"left": "left", "right": "right"}
CHOICE_PIECE = "{piece} ×{count}"
CHOICE_PUZZLE = "{card} · {points} pt · {filled}/{size} cells filled"
NOT_YOUR_PUZZLE = "You have no unfinished puzzle {card}. Your puzzles: {yours}."
NO_SUCH_PIECE = "Your supply has no {piece} piece."
FINESSE_FACE_DOWN = "the first two tiles stay face down (rounds 1–2)"
FINESSE_ALL_GONE = "every tile has left play"
FINESSE_TILE_NONE = "none (face down)"
ANY_PUZZLE = "any puzzle"

# -- lobby --------------------------------------------------------------------------------------
# (bot/discord/cogs/table.py, the lobby buttons of bot/discord/views.py): a public post, in the server's
# language

LOBBY_TITLE = "Project L — {variant} table"
LOBBY_VARIANT_SOLO = "Solo"
LOBBY_VARIANT_BASE = "base game"
LOBBY_VARIANT_LINE_CLEAR = "base game (Line Clear with 5–6 players)"
LOBBY_BODY = (
    "Host: {host}\nSeats: {seated}/{limit}\n{players}\n\nOptions: reserve {reserve} per shape, "
    "unfinished-puzzle penalty {penalty}{difficulty}.\n{clock}.\nPress **Join** to take a seat; the host "
    "presses **Start** when everyone is in."
)
LOBBY_SEAT = "{number}. {name}"
LOBBY_SEAT_HOST = " (host)"
LOBBY_SEAT_AI = " [AI]"
LOBBY_ON = "on"
LOBBY_OFF = "off"
LOBBY_DIFFICULTY = ", difficulty {difficulty}"
DIFFICULTY: dict[str, str] = {"normal": "normal", "hard": "hard", "unbeatable": "unbeatable"}
LOBBY_GHOST = ", Ghost Piece expansion {ghost}"
LOBBY_GHOST_DEFAULT = "on for 5–6 players"
LOBBY_FINESSE = ", Finesse expansion on"
LOBBY_FINESSE_AMBASSADOR = ", Finesse Ambassador Pack on"
LOBBY_AMBASSADOR = ", Ambassador Pack on"
LOBBY_PHOENIX = ", Phoenix on"
LOBBY_SCORES_PUBLIC = ", scores public"
LOBBY_SCORES_HIDDEN = ", scores hidden until the end"
LOBBY_ENDLESS_WHITE = ", Endless White Deck"
LOBBY_RATED = ", rated"
LOBBY_RATED_NO_HINTS = ", rated (no hints at a rated table)"
LOBBY_CASUAL = ", casual (not rated)"
LOBBY_HINTS_OFF = ", hints off"
LOBBY_STARTED = "The game has started! Seats: {players}.{clock}"
LOBBY_STARTED_CLOCK = "\n{clock}: when a player's time runs out, the others may vote to skip or remove."
LOBBY_CANCELLED = "This table was cancelled."
LOBBY_JOIN = "Join"
LOBBY_LEAVE = "Leave"
LOBBY_ADD_EASY = "Add Easy AI"
LOBBY_ADD_MEDIUM = "Add Medium AI"
LOBBY_ADD_STRONG = "Add Strong AI"
LOBBY_ADD_EXPERT = "Add Expert AI"
LOBBY_ADD_PLUGIN = "Add {name}"
LOBBY_START = "Start"
LOBBY_CANCEL = "Cancel"
LEFT = "You left the table."
CANCELLED = "The game in this channel was cancelled by {name}."
CANCELLED_AS_LOSS = ("The game was rated, so cancelling it counts as {name}'s loss; the other players' "
                     "ratings do not move.")
CANCEL_CONFIRM = "Cancel game {game_id}? It ends for everyone at the table."
CANCEL_CONFIRM_LOSS = ("Cancel game {game_id}? It ends for everyone at the table, and as it is rated it "
                       "counts as your loss (the other players' ratings do not move).")
CANCEL_YES = "Cancel the game"
CANCEL_NO = "Keep playing"
CANCEL_KEPT = "Game {game_id} goes on: nothing was cancelled."
CANCEL_DONE = "Game {game_id} is cancelled."
CANCEL_MOVED_ON = ("Game {game_id} has moved on since you asked: nothing was cancelled. To cancel it as it "
                   "is now, use `/projectl table cancel` again.")
CANCEL_OVER = "Game {game_id} is no longer running here: nothing was cancelled."
HINT_GAME_OVER = "Game {game_id} has ended: no hint was given, and none was counted."
LOBBY_CANCEL_STARTED = ("Game {game_id} has started: this lobby button no longer cancels it. To cancel it, "
                        "use `/projectl table cancel`, which asks first.")
MODE_UNSUPPORTED = (
    "This server's puzzle catalogue has too few cards for {mode}: it supports {modes}. "
    "Pick one of those (`variant` and `players`)."
)
MODE_SOLO = "Solo"
MODE_PLAYERS = "{n} players"
MODE_NONE = "no mode"

# -- status -----------------------------------------------------------------------------------
# (/projectl status, bot/discord/cogs/info.py): a private reply, in the user's language

STATUS_HEADER = "Round {round} · {phase} · {current}"
STATUS_PHASE: dict[str, str] = {"play": "playing", "finishing": "Finishing Touches", "over": "over"}
STATUS_TO_PLAY = "{name} to play ({n} action(s) left)"
STATUS_AND = " and "
STATUS_FINISHING = "{name} is making Finishing Touches"
STATUS_END_TRIGGERED = "The end is triggered: round {round} is the last."

# -- play ---------------------------------------------------------------------------------------

YOUR_TURN = "{mention}, it's your turn ({actions} actions)."
YOUR_FINISHING = (
    "{mention}, Finishing Touches: place pieces from your supply (-1 point each) with "
    "`/projectl play place`, then `/projectl play done`."
)
DONE_ACTION = "Done: `{action}`."
ACTIONS_LEFT = "{n} action(s) left this turn."
YOUR_CHOICE = (
    "{mention}, first a choice: {prompt}. Pick it on your panel (**Play**) or "
    "`/projectl play act text: choose <option>` — options: {options}."
)
ACTIONS_HELD = "Your actions are spent: Insert one more (2 active credits) or End turn."
TURN_OVER = "Your turn is over."
GAME_FINISHED = "**Game over!** {winners}"
MASTER_DRAFT = (
    "Master so far (nothing is placed until you confirm):\n{lines}\n"
    "Add more with `/projectl play master-add`, then `/projectl play master-confirm` or press "
    "**Confirm Master**."
)
MASTER_CLEARED = "Your Master draft is cleared."
PICK_PLACEMENT = "Choose where to put {piece} on {card}. You will see a preview before anything happens."
PREVIEW = "Preview: `{action}`. Press **Confirm** to place it."
MAT_OF = "{name}'s mat"

# -- help ---------------------------------------------------------------------------------------

HELP_INTRO = (
    "**Project L in Discord** — open a table with `/projectl table new`, then Join / Add AI / Start in "
    "its lobby; play at your pace, the bot remembers everything.\n"
    "• 2–4 players: base game · 5–6: **Line Clear** (two players at once) · `variant:solo`: **Solo**\n"
    "• options: **Ghost Piece** · **Finesse** · **Endless White** · **hidden scores** · "
    "**Unfinished penalty** · **Ambassador Pack** · **Phoenix** · **Finesse Ambassador Pack**\n"
    "**Your turn: 3 actions**, any mix — tap **Play** under the table image, or type the commands "
    "below. After the last round, Finishing Touches: `place` (-1 point each), then `done`."
)
HELP_HEADING = "**`{command}`** — {about}"
HELP_LINE = "• `{command}` — {about}"
HELP_ALSO = "**Also**"
HELP_ACT = (
    "**`act text:`** plays any action in notation, e.g. `place L3 on W07 at A1 A2 B2`; these have no "
    "command of their own: `choose …` answers a level-up (↑ ⇈), `ambassador …` is an extra Master, "
    "Finesse's `insert` spends 2 credits for an action and `end turn` keeps your credits."
)
HELP_CELLS = "Cells: columns A–E, rows 1–5 of the card, A1 top left."
"""``/projectl help`` around the commands it lists from the tree (bot/core/wording/help.py)."""

RULES: dict[str, str] = {
    "overview": (
        "Complete puzzles with Tetris-like pieces. Each turn you take **3 actions** (repeats allowed). "
        "A completed puzzle scores its points, gives back its pieces and rewards a new piece. When the "
        "black deck runs out, the round finishes, one more round is played, then Finishing Touches. "
        "Unfinished puzzles count against you (table option). With no other action possible, `pass`."
    ),
    "take": (
        "**Take a puzzle**: `/projectl play take` a face-up puzzle from the white or black row (Solo: a grid "
        "position 1–9, numbered row by row: 1 2 3 is the top row), or `/projectl play draw` the top card "
        "of a deck blind. "
        "You may hold at most 4 unfinished puzzles. Notation: `take white 3`, `draw black`, `take 5`."
    ),
    "level1": "**Take a level-1 piece** from the reserve: `/projectl play level1` (notation `level1`).",
    "upgrade": (
        "**Upgrade**: return one piece and take one exactly one level higher (skipping levels only "
        "when the next one has run out), or exchange it for a same-level or lower piece. "
        "`/projectl play upgrade give:2 take:L3` (notation `upgrade 2 to L3`)."
    ),
    "place": (
        "**Place** a piece from your supply on one of your puzzles, rotated or flipped, inside the "
        "recess and not over another piece. Choose the piece and the puzzle; the `cells` option then "
        "lists every legal spot (or leave it empty to pick from a menu with a preview). Notation: "
        "`place L3 on W07 at A1 A2 B2`."
    ),
    "master": (
        "**Master** (once per turn): place at most one piece on each of your puzzles at once, all from "
        "the supply you have at the start. Build it with `/projectl play master-add` (one per puzzle), then "
        "`/projectl play master-confirm`. Notation: `master L3 on W07 at A1 A2 B2; 1 on B02 at C3`."
    ),
    "recycle": (
        "**Recycle**: put a whole row under its deck in the order you choose, then reveal four new "
        "cards. `/projectl play recycle row:white order:3 1 4 2` (not in Solo)."
    ),
    "finishing": (
        "**Finishing Touches** (after the last round): place pieces from your supply on unfinished "
        "puzzles, 1 point lost per piece; puzzles completed now score but give no reward. Finish with "
        "`/projectl play done`."
    ),
    "solo": (
        "**Solo**: one deck, a 3×3 grid and lock pieces. Taking from a grid column feeds the "
        "mastermind; after each of your turns the mastermind takes the best unlocked card. Beat its "
        "score (ties go to the mastermind). Difficulty: normal, hard, unbeatable."
    ),
    "finesse": (
        "**Finesse** (table option `finesse`): a row of 10 tiles, one live per round (rounds 1–2: "
        "face down, none). Do what the live tile asks to earn credits: pink tiles pay at once, blue "
        "ones at the end of your turn. New credits are inactive until your turn ends. **Insert** "
        "(`/projectl play act text:insert`, or the panel's button): pay 2 active credits for one "
        "extra action, any time in your turn; with 2+ active credits your turn waits after the "
        "third action until you Insert or **End turn** (`end turn`). The game also ends after round "
        "10; Finishing Touches are paid with credits first; ties go to most credits."
    ),
    "lineclear": (
        "**Line Clear** (5–6 players): four rows of 3, a white and a black row on each side of the "
        "decks. The White-marker and Black-marker holders play their 3 actions **at the same time**, "
        "each taking from their own side (`take white 2` is the white row on your side); only the "
        "White-marker holder draws blind or recycles. When both are done each marker passes "
        "clockwise. Once the black deck runs out, each holder may take one black card per turn, and "
        "the game ends when the first player receives both markers again. Ghost Piece is on by "
        "default (required at 6 players, unless Phoenix is played)."
    ),
    "ghost": (
        "**Ghost Piece** (table option `ghost`): 30 level-5 ghost pieces (P, U, L pentominoes) and 24 "
        "more cards. Ghosts come only as a reward or a level-up, never by Upgrade. **Ghost action** "
        "(any number per turn): return a ghost and take level 1–4 pieces that tile its shape exactly, "
        "placing them at once if you like: `ghost P5 to 1 O4`. A level-up reward (↑, ⇈ twice) lets "
        "you swap a piece of your supply for one exactly one level higher: `choose L3 to O4` or "
        "`choose decline`."
    ),
    "known_scores": (
        "**Hidden scores** (table option `known_scores` off): everyone sees how many cards your score "
        "pile holds, never which cards or how many points, until the game ends. Hints and the AI "
        "keep to the same rule."
    ),
    "endless_white": (
        "**Endless White** (table option `endless_white`, 2+ players): when the white deck runs out, "
        "every player banks the points of their completed white cards, which are shuffled into a new "
        "white deck. Banked points count at the end, and each banked card as a completed puzzle for "
        "ties."
    ),
    "unfinished_penalty": (
        "**Unfinished penalty** (table option `unfinished_penalty`, on by default): at the end each "
        "unfinished puzzle costs its points; off, it costs nothing (the older edition)."
    ),
    "ambassador": (
        "**Ambassador Pack**: 1 white and 2 black Ambassador cards, with no reward piece. Once one is "
        "completed, on any later turn you may flip it for an **Ambassador action**: a Master (at most "
        "one piece on each of your puzzles) besides your turn's own Master, one of your actions. "
        "Notation: `ambassador 1 on B02 at C3`. You keep its points either way."
    ),
    "phoenix": (
        "**Phoenix**: 7 black cards worth 6 points, each needing at least 5 pieces, shuffled into the "
        "black pool. With Phoenix a 6-player Line Clear table does not need Ghost Piece."
    ),
    "finesse_ambassador": (
        "**Finesse Ambassador Pack** (with Finesse): six more Set C tiles join the draw — credits for "
        "no unfinished puzzle, each Recycle, a piece of every level 1–4, each Insert, no two pieces "
        "alike, no piece of level 1 or 2."
    ),
}
RULES_TOPICS: dict[str, str] = {
    "overview": "Overview (the base game)", "take": "Take a puzzle", "level1": "Take a level-1 piece",
    "upgrade": "Upgrade", "place": "Place a piece", "master": "Master", "recycle": "Recycle",
    "finishing": "Finishing Touches", "solo": "Solo", "finesse": "Finesse", "lineclear": "Line Clear",
    "ghost": "Ghost Piece", "known_scores": "hidden scores", "endless_white": "Endless White",
    "unfinished_penalty": "Unfinished penalty", "ambassador": "Ambassador Pack", "phoenix": "Phoenix",
    "finesse_ambassador": "Finesse Ambassador Pack",
}
"""Each ``/projectl rules`` topic by the name autocomplete offers (the reader's language). A mode's
topic is keyed by the engine's own name for it (a variant, or an ``engine.Options`` flag), so
tests/test_bot_info.py can hold every mode the engine accepts to a topic, and its name to the help."""
EXPANSIONS_UNKNOWN = (
    "There is no expansion {word}. Expansions: {words}, separated by commas (the suggestions list "
    "every combination). Ghost Piece has an option of its own, `ghost`."
)
RULES_UNKNOWN = "There is no rules topic {topic}. Topics: {topics}."
FINESSE_LIVE = "\n**Live tile now: {tile}** — {rule} ({left} tile(s) left in the row)."
FINESSE_NONE_LIVE = "\n**No live tile now**: {why}."

# -- reminders and settings --------------------------------------------------------------------
# (bot/discord/reminders.py, bot/discord/cogs/settings.py, docs/play-over-days.md): DMs in the player's
# language

REMINDER_TURN = "Your turn in <#{channel_id}> — round {round}, {actions} actions. {link}"
REMINDER_FINISHING = (
    "Finishing Touches in <#{channel_id}>: place pieces from your supply or `/projectl play done`. {link}"
)
REMINDER_NUDGE = "Still your turn in <#{channel_id}> (since <t:{since}:R>). {link}"
REMINDER_DEADLINE = "\nThe table's turn clock runs out <t:{deadline}:R>."
REMINDER_TIMED_OUT = (
    "\nYour turn clock ran out <t:{deadline}:R>; the table can vote to skip your turn or remove you. "
    "Play now to keep your seat."
)
REMINDER_TIMED_OUT_BACK = "\nYour turn clock ran out <t:{deadline}:R>, but you have played since: no vote."
REMINDER_FALLBACK = (
    "<@{user_id}>, it's your turn here (round {round}). I couldn't send you a direct message: allow "
    "DMs from this server and run `/projectl settings` to get reminders privately again."
)

SETTINGS_SUMMARY = (
    "**Your reminder settings** (all your games):\n"
    "Reminders: {enabled} · every {interval}\nQuiet hours: {quiet} ({timezone})\n"
    "Vacation until: {vacation}{dms}"
)
SETTINGS_TEXT_ONLY = "Boards as text first (text_only): {value}"
SETTINGS_HEADS_UP = "A DM when the player before you starts their turn (heads_up): {value}"
HEADS_UP = ("Heads-up: you're next in game {game_id} in <#{channel_id}>: **{name}** has just started "
            "their turn. {link}")
SETTINGS_ON = "on"
SETTINGS_OFF = "off"
SETTINGS_NONE = "none"
SETTINGS_HOURS = "{hours} h"
SETTINGS_SAVED = "Saved. {summary}"
SETTINGS_DMS_CLOSED = (
    "\nLast time I could not DM you, so reminders went to the game channel. Saving your settings "
    "lets me try DMs again."
)
BAD_INTERVAL = "The reminder interval is between 1 and 168 hours (7 days)."
BAD_QUIET_HOURS = "Quiet hours look like `22:00-07:00` (start-end, 24-hour clock), or `off`."
BAD_TIMEZONE = "{text} is not a time zone I know. Use a name like `Europe/Paris` or `America/New_York`."
BAD_VACATION = (
    "The vacation date is the day you are back, as YYYY-MM-DD after today and at most a year ahead "
    "(like `2025-08-31`), or `off`."
)

# -- turn clock and votes ------------------------------------------------------------------------
# (bot/core/days/turn_limits.py, bot/core/days/turnclock.py, bot/discord/cogs/absence.py)

TURN_LIMIT_BAD = "The turn clock is 1 to 7 days per turn."
TURN_LIMIT_SOLO = (
    "A turn clock lets the other players vote when someone's time runs out, and Solo has no other "
    "players: start it without `turn_limit_days`."
)
TURN_LIMIT_SET = (
    "Turn clock: {limit} per turn. When a player's time runs out, the other players may vote to skip "
    "that turn or remove the player."
)
TURN_CLOCK = "Turn clock: {limit} per turn"
TURN_CLOCK_NONE = "Turn clock: none"
TURN_CLOCK_ONE_DAY = "1 day"
TURN_CLOCK_DAYS = "{days} days"
STATUS_CLOCK_RUNNING = " · {name}'s time runs out <t:{deadline}:R>"
STATUS_CLOCK_EXPIRED = (
    " · {name}'s time ran out <t:{deadline}:R>: the other players may vote to skip or remove "
    "(`/projectl table vote`)"
)
STATUS_CLOCK_BACK = " · {name}'s time ran out <t:{deadline}:R>, but they have played since"
TURN_TIMED_OUT = (
    "⏰ {name}'s time for this turn ran out ({limit} per turn). {voters}: you can vote to **skip** "
    "the turn or **remove** {name} from the game, with the buttons below or `/projectl table vote`. A "
    "majority ({needed} of {count}) decides; if {name} plays first, they keep their seat."
)
TIMED_OUT_DM = (
    "⏰ Your time for this turn in <#{channel_id}> ran out ({limit} per turn). The other players may "
    "now vote to skip your turn or remove you from the game. To keep your seat, play now: any action "
    "counts. {link}"
)
TIMED_OUT_FALLBACK = (
    "<@{user_id}>, your time for this turn ran out: the other players may now vote to skip your turn "
    "or remove you from the game. To keep your seat, play now. (I couldn't send you a direct "
    "message: allow DMs from this server and run `/projectl settings` to get these privately.)"
)
VOTE_SKIP = "Vote: skip the turn"
VOTE_REMOVE = "Vote: remove the player"
VOTE_NO_LIMIT = (
    "This table has no turn clock, so there is nothing to vote on. The host can `/projectl table replace` "
    "an absent player with an AI."
)
VOTE_NOT_YET = "{name} still has time for this turn (until <t:{deadline}:f>). Votes open when it runs out."
VOTE_BACK = "{name} is back and has played since their time ran out, so there is nothing to vote on."
VOTE_OWN_TURN = "You cannot vote on your own turn."
VOTE_REMOVED = "You are out of this game (you left, or the table removed you), so you cannot vote."
VOTE_RECORDED = "Your vote to {choice} is recorded: skip {skip}, remove {remove}; {needed} needed."
VOTE_CHOICE_SKIP = "skip the turn"
VOTE_CHOICE_REMOVE = "remove the player"
VOTE_PASSED_SKIP = "The table voted to skip <@{user_id}>'s turn."
VOTE_PASSED_REMOVE = "The table voted to remove <@{user_id}> from the game."
VOTE_PASSED_SKIP_AI = "The table voted to skip {name}'s turn."
VOTE_PASSED_REMOVE_AI = "The table voted to remove {name} from the game."
SKIPPED_DM = (
    "The table in <#{channel_id}> voted to skip your turn after your time ran out. The game goes "
    "on, and your next turn comes as usual. {link}"
)
REMOVED_DM = (
    "The table in <#{channel_id}> voted to remove you from the game after your time ran out. Your "
    "pieces went back to the reserve and your unfinished puzzles left play; your completed puzzles "
    "stay, but you cannot win. You can still follow the game with `/projectl status`. {link}"
)
VOTE_STALE = "That vote was for a turn that is already over."
GAME_GONE_CHANNEL_DM = (
    "Game {game_id} in #{channel} on {server} has ended: its channel was deleted. It is kept as "
    "cancelled; no rating changes."
)
GAME_GONE_UNNAMED_DM = (
    "Game {game_id} on {server} has ended: the channel or thread it was played in was deleted. It "
    "is kept as cancelled; no rating changes."
)
GAME_GONE_SERVER_DM = (
    "Game {game_id} in #{channel} on {server} has ended: the bot was removed from that server. It "
    "is kept as cancelled; no rating changes."
)

# -- leaving and replacing -----------------------------------------------------------------------
# (bot/discord/cogs/absence.py, bot/core/days/turnclock.py)

LEAVE_CONFIRM = (
    "Leave this game for good? Your pieces go back to the reserve and your unfinished puzzles leave "
    "play; your completed puzzles stay but you cannot win. Press **Leave the game** to confirm."
)
LEAVE_BUTTON = "Leave the game"
LEFT_GAME = "{name} left the game."
LEAVE_REMOVED = "You are already out of this game (you left, or the table removed you)."

REPLACE_HOST_ONLY = "Only the host can hand a seat to an AI."
REPLACE_SELF = "You cannot replace yourself: use `/projectl table leave`, or ask another player."
REPLACE_REMOVED = "{name} is already out of the game; a removed seat cannot come back."
REPLACED = "{name}'s seat is now played by {ai}."

# -- undo ----------------------------------------------------------------------------------------
# (bot/core/play/undo.py, /projectl play undo in bot/discord/cogs/records.py)

UNDO_NOTHING = "There is nothing to take back in this game yet."
UNDO_NOT_YOURS = "You can only take back your own last action, and {name} has acted since."
UNDO_DECISION = "A table decision (a skip or a removal) cannot be taken back."
UNDO_HIDDEN = "`{action}` revealed a card nobody had seen, so it cannot be taken back."
UNDO_DONE = "Took back `{action}`."
UNDO_PUBLIC = "↩️ {name} took back their last action (`{action}`)."

# -- server language (bot/discord/cogs/server.py) -----------------------------------------------------------
SERVER_ADMINS_ONLY = ("Only a member with the **Manage Server** permission can choose the language "
                      "of the bot's posts in this server.")
SERVER_LANGUAGE_CHOSEN = ("Public posts in this server (turn posts, lobbies, votes, results and the "
                          "images) are now in {language}. Private replies and DMs stay in each "
                          "player's own Discord language.")
SERVER_LANGUAGE_FOLLOWED = ("Public posts in this server follow its preferred locale again (the "
                            "server's settings), so they are now in {language}.")
SERVER_LANGUAGE_IS_CHOSEN = ("Public posts in this server are in {language}, chosen with "
                             "`/projectl-server`. Private replies and DMs follow each player's own "
                             "Discord language.")
SERVER_LANGUAGE_IS_FOLLOWED = ("Public posts in this server follow its preferred locale: {language}. "
                               "Choose another with `/projectl-server language:`.")
SERVER_PLUGIN_AIS_ON = ("Lobbies in this server now offer the plug-in AIs installed beside the bot: "
                        "{names}. They see only what their seat may see.")
SERVER_PLUGIN_AIS_NONE = "none is installed yet"
SERVER_PLUGIN_AIS_OFF = "Lobbies in this server no longer offer plug-in AIs."

# -- the record (bot/core/records/history.py) ----------------------------------------------------------------
# /projectl log, the final summary, /projectl stats, table decisions as the log tells them.
# (issue 18, pt-play)

PLAYER_REMOVED = "{name} was removed from the game; their pieces went back to the reserve{puzzles}."
PLAYER_REMOVED_PUZZLES = " and their unfinished puzzles ({cards}) left play"
LOG_BY_VOTE = "(table vote)"
LOG_TITLE = "Game {game_id} — actions {first}–{last} of {total}{taken_back} (page {page}/{pages})"
LOG_TAKEN_BACK = ", {n} taken back"
LOG_EMPTY = "No actions yet."
LOG_LINE = "`#{seq}` R{round} **{name}**: `{action}`"
LOG_LINE_SAID = "`#{seq}` R{round} **{name}**: `{action}` — {said}"
LOG_DECISION_LINE = "`#{seq}` R{round} {decision}"
LOG_UNDONE_LINE = "`#{seq}` **{name}**: `{action}`"
LOG_UNDONE = "~~{line}~~ (taken back)"
LOG_PLANNED = "{line} (planned)"
LOG_PREV = "◀ Prev"
LOG_NEXT = "Next ▶"
LOG_NO_GAME = "There is no game to show in this channel."
LOG_NOT_HERE = "Game {game_id} was not played in this server."
GAME_NOT_READABLE = "There is no game {game_id} you can read from here."
"""A game of another server, or one whose channel is private and the reader neither played it nor
asks from inside it (bot/core/records/access.py): the same words, so nothing about it shows."""
LOG_HINT = "Only you see this. Browse with ◀ Prev / Next ▶ or `/projectl log page:`."
SEAT_FALLBACK = "Seat {number}"
SUMMARY_TITLE = "Game {game_id} — final summary"
SUMMARY_LINE = "**{name}**: {total} pt — completed {completed}{unfinished}"
SUMMARY_UNFINISHED = "; unfinished {cards}"
SUMMARY_LEFT = "**{name}**: left the game — completed {completed}"
SUMMARY_REMOVED = "**{name}**: removed by a table vote — completed {completed}"

STATS_TITLE = "Project L in this server — {games} finished game(s)"
STATS_LINE = "**{name}**: {played} played, {wins} won, average {average} pt{left}"
STATS_LEFT = ", left {n}"
STATS_EMPTY = "No finished games in this server yet."
STATS_HINT = "Finished games in this server, best first (a game someone left counts as played, not scored)."

# -- the private turn panel (bot/discord/panel_views.py) ----------------------------------------------------
# Every label, placeholder and sentence of the panel, so a translation touches only this block.

PLAY_BUTTON = "Play"
PANEL_TURN = "**Your turn** · {n} action(s) left. Choose below, or type `/projectl play …`."
PANEL_CREDITS = " Finesse: {active} active, {inactive} inactive credit(s); live tile {tile}."
PANEL_FINISHING = "**Finishing Touches** · place pieces (-1 point each), then press **Done**."
PANEL_CHOOSE = "**A decision is waiting**: choose below before anything else."
PANEL_CHOOSE_ABOUT = "**A decision is waiting** ({about}): choose below before anything else."
PANEL_NEXT = "Next action:"
PANEL_STALE = (
    "That panel is out of date: the game has moved on since it was shown. Nothing was changed. "
    "Press **Play** for a fresh one."
)
STALE_FOR_YOU = (
    "That is out of date: {changed} changed since it was shown. Nothing was changed. "
    "Here is your panel as it stands now."
)
STALE_PART_TURN = "your turn"
STALE_PART_MAT = "your puzzles and pieces"
STALE_PART_ROWS = "the puzzles on your side"
STALE_PART_GAME = "the game"
PANEL_TAKE = "Take a puzzle…"
PANEL_TAKE_SLOT = "{where} · {card} · {points} pt · reward {reward} · {size} cells"
PANEL_ROW_SLOT = "{colour} {slot}"
PANEL_GRID_SLOT = "Grid {slot}"
PANEL_DRAW = "Draw blind from the {deck} deck ({left} left)"
PANEL_DRAW_SOLO = "Draw blind from the deck ({left} left)"
PANEL_PLACE = "Place a piece…"
PANEL_PIECE = "{piece} ×{count} · fits on {cards}"
PANEL_PICK_PUZZLE = "Place {piece}: on which puzzle?"
PANEL_PUZZLE = "{card} · {points} pt · {filled}/{size} filled · {spots} spot(s)"
PANEL_PICK_SPOT = "Place {piece} on {card}: where? (a preview comes first)"
PANEL_PREVIEW = "Preview: `{action}`. Press **Confirm** to place it, or **Back**."
PANEL_UPGRADE = "Upgrade or exchange a piece…"
PANEL_GIVE = "Give {piece} (×{count})"
PANEL_PICK_TAKE = "Give {piece}: take which piece?"
PANEL_TAKE_PIECE = "{piece} (level {level})"
PANEL_OTHER = "Other actions…"
PANEL_CHOOSE_MENU = "Choose…"
PANEL_LEVEL1 = "Level 1 piece"
PANEL_MASTER = "Master"
PANEL_RECYCLE = "Recycle"
PANEL_UNDO = "Undo"
PANEL_PASS = "Pass"
PANEL_INSERT = "Insert (2 credits)"
PANEL_END_TURN = "End turn"
PANEL_HELD = (
    "**Your turn** · your actions are spent, but you hold {active} active credits: **Insert** one "
    "more action for 2, or **End turn**."
)
PANEL_DONE = "Done"
PANEL_BACK = "Back"
PANEL_CONFIRM = "Confirm"
PANEL_MORE = "▶ more ({first}–{last} of {total})"
PANEL_EARLIER = "◀ earlier"
PANEL_PICK_RECYCLE = (
    "Recycle: choose a row and the order its cards go under the deck (first listed goes first)."
)
PANEL_RECYCLE_ROW = "Recycle the {colour} row…"
PANEL_RECYCLE_ORDER = "{colour}: slots {order} under the deck"
PANEL_MASTER_TITLE = "**Master**: one piece on each puzzle you choose, all at once."
PANEL_MASTER_DRAFT = "So far (nothing is placed until you confirm):\n{lines}"
PANEL_MASTER_EMPTY = "Nothing chosen yet."
PANEL_MASTER_PUZZLE = "Add a piece on a puzzle…"
PANEL_MASTER_PICK_PIECE = "Master: which piece on {card}?"
PANEL_MASTER_PICK_SPOT = "Master: where does {piece} go on {card}?"
PANEL_MASTER_CONFIRM = "Confirm Master"
PANEL_MASTER_CLEAR = "Start over"
PANEL_AMBASSADOR = "Ambassador ×{count}"
PANEL_AMBASSADOR_TITLE = (
    "**Ambassador action**: flip your Ambassador card {card} ({points} pt, kept) face down for a Master: "
    "one piece on each puzzle you choose, all at once. It is not this turn's Master."
)
PANEL_AMBASSADOR_PICK_PIECE = "Ambassador: which piece on {card}?"
PANEL_AMBASSADOR_PICK_SPOT = "Ambassador: where does {piece} go on {card}?"
PANEL_AMBASSADOR_CONFIRM = "Confirm Ambassador"
PANEL_NOTHING = "You have nothing to do in this game right now."

# -- hints and reviews (bot/discord/cogs/advice.py) ----------------------------------------------------------
HINT = "Hint (only you see this; hints used this game: {used}): **`{action}`**\n{reason}"
HINT_REASON = ("Plan for this turn: {plan}. Played out {rollouts} times over re-dealt decks, it ends "
               "{margin:+.1f} points against the best rival on average ({wins:.0%} won)")
HINT_REASON_READ = ("Plan for this turn: {plan}. On {worlds} re-dealt decks, after every rival's reply, "
                    "it leaves you {margin:+.1f} points against the best rival by the Expert AI's reading")
HINT_ALTERNATIVE = "; the next best start, `{action}`, {margin:+.1f}."
HINT_WHY = "Why: {reasons}."
HINT_WHY_SCORES = "it scores {points} points now ({cards})"
HINT_WHY_TOWARDS = "it builds towards {card} ({points} points, {left} squares still empty)"
HINT_WHY_GAINS = "it gains {pieces}"
HINT_WHY_SAVES = "it keeps {pieces} to finish it"
HINT_WHY_SEP = "; "
THEN = ", then "
HINTS_OFF = "Hints are off at this table (the host opened it with hints: False)."
HINTS_RATED = ("No hints at a rated table: a hint would make the game casual for everyone. The host makes "
               "a table casual in its lobby, before the start, with `/projectl-games rated value:False`.")
HINTS_USED = "Hints used: {list}."
HINT_SOLO_RATED = ("This Solo game stays rated: with a hint, a loss still counts and a win is casual "
                   "(not rated).")
REVIEW_BUTTON = "Review"
REVIEW_TITLE = "**Review of game {game_id}** — each player's costliest turns, by the Expert AI's estimate:"
REVIEW_LINE = "· round {round}: played {played}; the AI prefers {better} (≈ {cost:.1f} points better)"
REVIEW_CLEAN = ": no turn the AI would clearly have played differently."
REVIEW_NO_GAME = "No finished game in this channel to review."
REVIEW_NOT_OVER = "The review is ready when the game is over."

# -- image descriptions (bot/core/wording/describe.py) -----------------------------------------------------
ALT_TURN = "{names} to move."
ALT_OVER = "The game is over."
ALT_MAT = "This is {name}'s mat."
ALT_SCORE = "{name}: {points}, {completed}, {supply}."
ALT_SCORE_HIDDEN = "{name}: {completed} (points hidden until the end), {supply}."
ALT_BUILDING = "{name} is building {cards}."
ALT_PUZZLE = "{card} ({left}: {cells})"
ALT_CARD = "{card} ({points} pt, reward {reward})"
ALT_ROW = "{row} row: {cards}."
ALT_ROW_EMPTY = "{row} row: empty."
ALT_ROW_NAMES = {"white": "White", "black": "Black", "left_white": "Left white", "left_black": "Left black",
                 "right_white": "Right white", "right_black": "Right black"}
ALT_GRID = "Solo grid, row by row: {cards}."
ALT_LEVEL_UPS = {"up": "a level-up", "up2": "two level-ups"}
ALT_AMBASSADOR = "an Ambassador action"
ALT_EMPTY_SLOT = "empty"
ALT_WINNERS = "Won by {names}."
ALT_END_TRIGGERED = "The end is triggered: round {round} is the last."
ALT_FINESSE_LIVE = "Live Finesse tile: {tile}."
ALT_FINESSE_NONE = "No Finesse tile is live yet (face down: {face_down})."
ALT_CREDITS = "Finesse credits, active and inactive: {credits}."
ALT_CREDITS_OF = "{name} {active} and {inactive}"
ALT_MARKERS = "White marker: {white}; black marker: {black}."
ALT_LOCKS = "Locks above the grid's columns, left to right: {locks}."
ALT_MASTERMIND = "{name}: {points} from {cards}, {pieces} left to lock with."
ALT_SUPPLY = "{name}'s pieces: {pieces}."
ALT_RESERVE = "Reserve: {pieces}."
ALT_COUNT = "{code} ×{count}"
ALT_NO_PIECES = "none"
ALT_DECKS = "Cards left in the decks: white {white}, black {black}."
ALT_SOLO_DECK = "Cards left in the deck: {cards}."
ALT_RECAP = "Animated recap of game {game_id}: the table at the deal, then after each round ({rounds})."
ALT_RECAP_SCORES = "{name}'s score round by round: {scores}."
ALT_MORE = "More: `/projectl-describe`."
ALT_POINTS = {"one": "{n} point", "other": "{n} points"}
ALT_COMPLETED = {"one": "{n} puzzle done", "other": "{n} puzzles done"}
ALT_PUZZLES = {"one": "{n} puzzle", "other": "{n} puzzles"}
ALT_PIECES = {"one": "{n} piece", "other": "{n} pieces"}
ALT_CELLS = {"one": "{n} cell", "other": "{n} cells"}
ALT_CELLS_LEFT = {"one": "{n} cell left", "other": "{n} cells left"}
"""Counted nouns: :func:`bot.core.wording.describe.counted` picks ``one`` for 1, ``other`` for
any other count, so no sentence says "1 pieces"."""

# -- /projectl-describe: the table or one's mat as text, a line per item (bot/core/wording/describe.py) ------
DESCRIBE_ROUND = "Round {round}."
DESCRIBE_ROWS = {"white": "White row", "black": "Black row", "left_white": "Left white row",
                 "left_black": "Left black row", "right_white": "Right white row",
                 "right_black": "Right black row", "grid": "Solo grid"}
DESCRIBE_SLOT = "{row}, slot {slot}: {card}."
DESCRIBE_CARD = "{card}, {size}"
DESCRIBE_PUZZLE = "Puzzle {card}: {left} of {size}: {cells}."
DESCRIBE_NO_PUZZLES = "No puzzle being built."
DESCRIBE_PIECE = "Piece {piece}: {count}."
DESCRIBE_NO_PIECES = "No pieces in supply."
DESCRIBE_RESERVE = "Reserve, {piece}: {count}."
DESCRIBE_NOT_SEATED = "You have no seat at this table, so there is no mat of yours to describe."

# -- the table's pace and the forecast (bot/core/days/pace.py): status, stats, the reminders -------------
PACE_TITLE = "**Pace**, your turn to your last action (quiet hours and vacations left out):"
PACE_LINE = "{name}: this game {game}; this server {server}"
PACE_SERVER_LINE = "<@{user_id}>: {figures}"
PACE_FIGURES = "median {median}, 90% within {p90} ({turns} turns)"
PACE_NONE = "no finished turn yet"
DURATION_MINUTES = "{m} min"
DURATION_HOURS = "{h} h {m} min"
DURATION_DAYS = "{d} d {h} h"
FORECAST_TODAY = "At this pace the game ends today."
FORECAST_DAY = "At this pace the game ends around {day}."
FORECAST_DATE = "At this pace the game ends around <t:{ts}:D>."
WEEKDAYS = {"0": "Monday", "1": "Tuesday", "2": "Wednesday", "3": "Thursday", "4": "Friday",
            "5": "Saturday", "6": "Sunday"}

# -- what changed (bot/core/wording/catchup.py): the alt text's news, "While you were away", /projectl catchup
CATCHUP_TAKEN = "Taken: {cards}."
CATCHUP_BY = "by {name}"
CATCHUP_MASTERMIND_TOOK = "{card} by {name}"
CATCHUP_DREW = "{count} drawn from a deck by {name}"
CATCHUP_COMPLETED = "Completed: {puzzles}."
CATCHUP_DONE = "{card} by {name} (+{points})"
CATCHUP_DONE_HIDDEN = "a puzzle by {name} (points hidden)"
CATCHUP_TILE = "The live Finesse tile is now {tile}."
CATCHUP_WANTED = "A card you could complete from your supply was taken: {cards}."
CATCHUP_SHORT = "Pieces you have none of, taken from the reserve: {pieces}."
CATCHUP_SHORT_PIECE = "{code} ×{count} ({left} left)"
CATCHUP_TITLE = "**While you were away** (since your last turn):"
CATCHUP_NOTHING = "Nothing has changed since your last turn."
CATCHUP_TITLE_FIRST = "**Since the game started** (you have not had a turn yet):"
CATCHUP_FIRST_TURN = "This is your first turn: nothing happened before it."
CATCHUP_NOTHING_YET = "You have not had a turn yet, and nothing has happened since the game started."
CATCHUP_NOT_SEATED = (
    "You have no seat at this table, so there is no last turn of yours to catch up on: "
    "`/projectl-describe` reads the table."
)

# -- ratings, replays and recaps (bot/discord/cogs/ladder.py) -----------------------------------------

HOST_ONLY_RATED = "Only the host can make the table rated or casual, before it starts."
RATED_STARTED = ("That game has already started: a table is made rated or casual in its lobby, "
                 "before the start.")
RATED_ON = "This table is **rated**: its result will move the players' ratings."
RATED_OFF = "This table is **casual**: its result is recorded but moves no rating."
LEADERBOARD_TITLE = "Ratings — {scope}, {ladder} (page {page}/{pages})"
SCOPE_SERVER = "this server"
SCOPE_ALL = "all servers"
LADDER_MULTI = "multiplayer"
LADDER_SOLO = "Solo ({difficulty})"
DIFFICULTY_NAMES: dict[str, str] = {"normal": "normal", "hard": "hard", "unbeatable": "unbeatable"}
LEADERBOARD_LINE = "`#{place}` **{name}** — {rating}{provisional} · games: {games}"
LEADERBOARD_EMPTY = "Nobody is rated on this ladder yet: finish a rated game."
LEADERBOARD_AI = "AI levels on the same scale: {levels}"
AI_LEVEL = "{name} AI ≈ {rating}"
LEADERBOARD_HINT = ("Only you see this. Best first by rating minus its uncertainty; "
                    "'?' marks fewer than 5 rated games.")
RATINGS_TITLE = "Ratings in this server"
RATING_LINE = "**{name}**: {rating}{provisional} · rated games: {games} · last {n}: {trend}"
RATINGS_EMPTY = "No rated games in this server yet."
RATING_VALUE = "{thousands},{rest}"
REPLAY_TITLE = "Replay of game {game_id} — step {step}/{last} (round {round})"
REPLAY_START = "The deal: the table before the first move."
REPLAY_HINT = "Only you see this. Step through with First / ‹ / › / Last, or jump to a turn."
REPLAY_FIRST = "⏮ First"
REPLAY_LAST = "Last ⏭"
REPLAY_JUMP = "Jump to turn…"
REPLAY_OPTION = "Step {step} (round {round})"
REPLAY_OPTION_START = "Step 0: the deal"
REPLAY_NONE = "This channel has no finished game to replay: name one with `game:`."
REPLAY_NOT_HERE = "Game {game_id} is not a finished game of this server."
GAME_CHOICE = "Game {game_id}: {names}"
EXPORT_HINT = ("Only you see this. Game {game_id}'s record (`.json`: replay it exactly with "
               "`python -m engine replay FILE`) and its log as text.")
EXPORT_NOT_FINISHED = "Game {game_id} is not finished: only a finished game can be exported."
EXPORT_LOG_TITLE = "Project L — game {game_id}: the log"
INBOX_MINE_TITLE = "**Waiting for you** (oldest first):"
INBOX_MINE_LINE = "• [Game {game_id}]({link}) in {channel}: your move for {waited}"
INBOX_MINE_NONE = "No game on this server is waiting for you."
INBOX_OTHERS_TITLE = "**Waiting on others:**"
INBOX_OTHERS_LINE = "• [Game {game_id}]({link}) in {channel}: {who}'s move for {waited}"
INBOX_MORE = "… and {n} more."
NEXT_GAME_BUTTON = "Next game waiting for you"
NEXT_GAME = "[Game {game_id}]({link}) in {channel} has waited for you for {waited}."
NEXT_GAME_NONE = "No other game on this server is waiting for you."
PLAN_EMPTY = ("Write your plan as actions in the engine's notation, separated by `;` "
              "(e.g. `take white 2; level1`).")
PLAN_TOO_LONG = "A plan holds one turn: at most {n} steps."
PLAN_NOT_NOW = ("Plans are for a multiplayer game in play (in Solo and in Finishing Touches, play as it "
                "comes).")
PLAN_REMOVED = "You are out of this game (you left, or the table removed you): you have no next turn to plan."
PLAN_YOUR_TURN = "It is your turn now: play it. A plan is for your next turn, laid out while others play."
PLAN_STEP_REFUSED = "Step {n} of the plan would be refused: {reason}"
PLAN_PAST_THE_TURN = "your turn was over before this step."
PLAN_CARD_GONE = "{card} is no longer where the plan took it from."
PLAN_CHANGED_MEANWHILE = ("you changed or cancelled the plan while it was playing, so nothing more of it "
                          "was played.")
PLAN_SAVED = "Planned for your next turn (only you see it):\n{steps}\nIt plays the moment your turn starts."
PLAN_STEP = "{n}. `{action}`"
PLAN_STEP_CARD = "{n}. `{action}` ({card})"
PLAN_NONE = "You have no plan in this game."
PLAN_SHOWN = "Your plan for your next turn (only you see it):\n{steps}"
PLAN_CANCELLED = "Your plan is cancelled: your next turn waits for you."
PLAN_PLAYED = "Your planned turn in game {game_id} was played: {actions}."
PLAN_STOPPED = ("Your plan in game {game_id} played {actions} and stopped at `{step}`: {reason} Not played: "
                "{left}.")
PLAN_STOPPED_FIRST = ("Your plan in game {game_id} stopped at its first step, `{step}`: {reason} "
                      "Not played: {left}.")
PLAN_NOTHING_PLAYED = "nothing"
PLAN_BUTTON = "Plan my next turn"
PLAN_FORM_TITLE = "Plan your next turn"
PLAN_FORM_LABEL = "Your actions, in order, one per line (or ;)"
"""At most 45 characters in every language: Discord's limit for a form field's label."""
PLAN_FORM_HINT = "take white 2\nplace I3 on W07 at A1 A2 A3\nlevel1"
"""The form's example, a step a line (at most 100 characters)."""
PLAN_ACTIONS_LEFT = "It is still your turn, with actions left: {n}. {link}"
RECAP_TITLE = "**Recap of game {game_id}**, round by round."
RECAP_SWING = "The move that swung it: **{name}**'s `{action}` in round {round} (the winner's lead {delta})."
RECAP_NO_SWING = "No single move swung this game."

# -- the web board (bot/web, bot/discord/board_button.py) --------------------------------------------
BOARD_BUTTON = "Board"
BOARD_LINK = (
    "Your board for game {game_id}: {url}\nIt plays your seat for 24 hours: keep the link to yourself."
)
BOARD_LINK_WATCH = "A read-only board of game {game_id} (you hold no seat in it): {url}"
BOARD_OFF = "The web board is switched off on this bot."
BOARD_DONE_CATCHING_UP = (
    "It is done (saved), but the board could not show all of it just now: it will catch up."
)
"""Said on the page when a change was committed but the answer could not be built in full."""
BOARD_NOT_JSON = "The request body is not JSON."
BOARD_NEEDS_STAMP = "The request needs a stamp and an action."
BOARD_NO_ACTION = "The request names no action the board knows."
BOARD_PLAN_BODY = "The request needs the plan's steps (at most {n}) and, in Line Clear, a side."
BOARD_FORBIDDEN = "This link is not valid (forged, expired, or for another seat)."
ACTIVITY_OFF = "The Activity is not set up on this bot."
ACTIVITY_NEEDS_CODE = "The request needs a code and a channel_id."
ACTIVITY_NO_GAME = "There is no game being played in this channel."
ACTIVITY_CODE_REFUSED = "Discord refused the sign-in code; open the Activity again."
ACTIVITY_WHO_UNKNOWN = "Discord did not say who signed in; open the Activity again."
ACTIVITY_UNREACHABLE = "Discord could not be reached to sign you in; try again."

from bot.core.wording.locales import keyed as _keyed  # noqa: E402  (last: every sentence above gets its key)

_keyed(globals())
