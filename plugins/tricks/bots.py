"""The trick family's default bots: a Hearts player that avoids points, a Briscola player that counts them.

Both read only their view: the card table the variant scores with (``view.facts.tables``),
the trick on the table, and where they saw each card go (``view.known``: the tricks each
seat took). Neither looks ahead; they play as a careful beginner would.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import Action, Game, Random, View

from .bidding import BID_OF_WORD


def _winning(view: View, trick: Sequence[int]) -> int:
    """The card winning the trick so far: the highest trump, else the highest of the suit led."""
    facts = view.facts
    suit_of, pos = facts.suit_of, facts.pos
    t = view.counters.get("trump", 0)
    trump = view.deck.suits[t - 1] if t else None
    best = trick[0]
    for c in trick[1:]:
        if suit_of[c] == suit_of[best]:
            if pos[c] > pos[best]:
                best = c
        elif suit_of[c] == trump:
            best = c
    return best


def _beats(view: View, card: int, best: int) -> bool:
    facts = view.facts
    suit_of, pos = facts.suit_of, facts.pos
    t = view.counters.get("trump", 0)
    trump = view.deck.suits[t - 1] if t else None
    if suit_of[card] == suit_of[best]:
        return bool(pos[card] > pos[best])
    return bool(suit_of[card] == trump and suit_of[best] != trump)


def _table(view: View, name: str) -> Sequence[int]:
    tables = view.facts.tables
    return tables.get(name) or next(iter(tables.values()), ())


class HeartsBot:
    """Avoids points (HE-4.1): ducks under the trick's winner, sheds Q♠ and high hearts when void,
    passes its most dangerous cards, and takes a penalty trick itself to stop a player who has
    taken every point so far from shooting the moon (HE-4.2)."""

    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        penalty = _table(view, "penalty")
        pos, suit_of = view.facts.pos, view.facts.suit_of
        if legal[0].kind == "pass":
            return max(legal, key=lambda a: self._danger(view, a.cards[0], penalty))
        plays = [a for a in legal if a.kind == "play"]
        trick = view.cards("trick")
        if not trick:  # leading: the lowest card that carries no points, from the suit with most left out
            return min(plays, key=lambda a: (penalty[a.cards[0]] > 0, pos[a.cards[0]], a.cards[0]))
        best = _winning(view, trick)
        led = suit_of[trick[0]]
        following = [a for a in plays if suit_of[a.cards[0]] == led]
        on_table = sum(penalty[c] for c in trick)
        if self._moon_threat(view, penalty) and on_table > 0:
            winners = [a for a in plays if _beats(view, a.cards[0], best)]
            if winners:  # take the points: the moon is stopped
                return min(winners, key=lambda a: (penalty[a.cards[0]], pos[a.cards[0]]))
        if following:
            under = [a for a in following if not _beats(view, a.cards[0], best)]
            if under:  # the highest card that still loses the trick
                return max(under, key=lambda a: pos[a.cards[0]])
            last = len(trick) == view.players - 1
            if last and on_table == 0:
                return max(following, key=lambda a: (penalty[a.cards[0]] == 0, pos[a.cards[0]]))
            return min(following, key=lambda a: (penalty[a.cards[0]], pos[a.cards[0]]))
        # void: shed the worst card, Q♠ first, then high hearts, then high cards
        return max(plays, key=lambda a: (penalty[a.cards[0]], pos[a.cards[0]]))

    @staticmethod
    def _danger(view: View, card: int, penalty: Sequence[int]) -> tuple[int, int]:
        """How badly a card may take points: a penalty card, a high spade when spades are short, a high card."""
        facts = view.facts
        suit_of, pos = facts.suit_of, facts.pos
        hand = view.hand
        same = sum(1 for c in hand if suit_of[c] == suit_of[card])
        high = pos[card]
        if penalty[card] >= 10:  # Q♠ (and Black Maria's K♠, A♠)
            return (3, high)
        spades_short = suit_of[card] == "♠" and same < 4 and high >= len(view.deck.ranks) - 3
        if spades_short:
            return (2, high)
        return (1 if penalty[card] > 0 and high > 6 else 0, high * 2 - same)

    @staticmethod
    def _moon_threat(view: View, penalty: Sequence[int]) -> bool:
        """One other seat has taken every penalty point taken so far, and at least half of them."""
        takers: dict[str, int] = {}
        for card, zone in view.known.items():
            if zone.startswith("taken.") and penalty[card] > 0:
                takers[zone] = takers.get(zone, 0) + penalty[card]
        if len(takers) != 1:
            return False
        zone, points = next(iter(takers.items()))
        whole = sum(v for v in penalty if v > 0)
        return zone != f"taken.{view.seat}" and points * 2 >= whole


class BriscolaBot:
    """Counts points (BR-1.3): takes the points on the table when it can do so cheaply, saves its
    trumps for tricks worth ten or more, and throws its cheapest card when it cannot win."""

    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view: View, legal: list[Action]) -> Action:
        swap = [a for a in legal if a.kind == "exchange"]
        if swap:  # BR-V4: the turned card is always worth more than the low trump
            return swap[0]
        if len(legal) == 1:
            return legal[0]
        points = _table(view, "points")
        pos, suit_of = view.facts.pos, view.facts.suit_of
        t = view.counters.get("trump", 0)
        trump = view.deck.suits[t - 1] if t else None
        plays = [a for a in legal if a.kind == "play"]

        def cheap(a: Action) -> tuple[bool, int, int]:
            c = a.cards[0]
            return (suit_of[c] == trump, points[c], pos[c])

        trick = view.cards("trick")
        if not trick:
            return min(plays, key=cheap)
        best = _winning(view, trick)
        on_table = sum(points[c] for c in trick)
        winners = [a for a in plays if _beats(view, a.cards[0], best)]
        plain = [a for a in winners if suit_of[a.cards[0]] != trump]
        if plain and (on_table > 0 or points[max(plain, key=lambda a: points[a.cards[0]]).cards[0]] > 0):
            # win in the suit led: with the card worth most (its points come with the trick)
            return max(plain, key=lambda a: (points[a.cards[0]], pos[a.cards[0]]))
        trumps = [a for a in winners if suit_of[a.cards[0]] == trump]
        late = view.count("stock") + view.count("turned") == 0
        if trumps and (on_table >= 10 or (late and on_table > 0)):
            return min(trumps, key=lambda a: (points[a.cards[0]], pos[a.cards[0]]))
        return min(plays, key=cheap)


class OhHellBot:
    """Bids its sure and likely tricks (OH-4.2), then plays to take exactly that many (OH-6.1).

    The estimate counts a trump by its height (the top trumps nearly sure, a low one a
    likely ruff), an ace of a plain suit as likely, a guarded king as an even chance; the
    bid is the legal bid nearest to that sum (the hook may forbid it, OH-4.3). In play it
    wins tricks, as cheaply as it can, while it still needs some, and ducks under the
    trick's winner, shedding its highest cards, once its bid is made."""

    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind == "bid":
            return self._bid(view, legal)
        pos, suit_of = view.facts.pos, view.facts.suit_of
        t = view.counters.get("trump", 0)
        trump = view.deck.suits[t - 1] if t else None
        need = self.need(view)
        plays = [a for a in legal if a.kind == "play"]

        def height(a: Action) -> tuple[bool, int]:
            return (suit_of[a.cards[0]] == trump, pos[a.cards[0]])

        trick = view.cards("trick")
        if not trick:  # leading: a strong card while tricks are needed, else the lowest
            return max(plays, key=height) if need > 0 else min(plays, key=height)
        best = _winning(view, trick)
        winners = [a for a in plays if _beats(view, a.cards[0], best)]
        losers = [a for a in plays if a not in winners]
        if need > 0 and winners:
            last = len(trick) == view.players - 1
            return min(winners, key=height) if last or len(winners) == 1 else max(winners, key=height)
        if need <= 0 and losers:  # the bid is made: the highest card that still loses
            return max(losers, key=height)
        return min(plays, key=height)

    @staticmethod
    def need(view: View) -> int:
        """Tricks still wanted: the bid less the tricks taken (above 0: win; else duck)."""
        counters = view.counters
        return counters.get(f"bid.{view.seat}", 0) - counters.get(f"tricks.{view.seat}", 0)

    def _bid(self, view: View, legal: list[Action]) -> Action:
        wanted = self.estimate(view)
        return min(legal, key=lambda a: (abs(BID_OF_WORD[a.detail] - wanted), BID_OF_WORD[a.detail]))

    @staticmethod
    def estimate(view: View) -> float:
        """Sure and likely tricks of the hand: trumps by height, plain aces, guarded kings (fewer with more players)."""
        facts = view.facts
        suit_of, pos = facts.suit_of, facts.pos
        t = view.counters.get("trump", 0)
        trump = view.deck.suits[t - 1] if t else None
        top = len(view.deck.ranks) - 1
        hand = view.hand
        length: dict[str, int] = {}
        for c in hand:
            length[suit_of[c]] = length.get(suit_of[c], 0) + 1
        crowd = 4 / max(view.players, 3)  # a plain winner survives less often round a larger table
        total = 0.0
        for c in hand:
            below = top - pos[c]  # 0: an ace, 1: a king, ...
            if suit_of[c] == trump:
                total += (1.0, 0.8, 0.6)[below] if below < 3 else 0.35
            elif below == 0:
                total += 0.85 * min(1.0, crowd)
            elif below == 1 and length[suit_of[c]] >= 2:
                total += 0.45 * min(1.0, crowd)
        return total


class SpadesBot(OhHellBot):
    """Bids its sure and likely tricks, nil with a hand that holds almost none (SP-3.2), then plays for
    its side (SP-3.3): wins while the side's contract needs tricks, ducks as a nil bidder, covers a
    nil partner, and once the contract is made goes on winning only to set the opponents' (SP-5.3)."""

    BLIND_BEHIND = 200  # SP-V1: bid blind nil only when the side is this far behind

    def choose(self, view: View, legal: list[Action]) -> Action:
        kind = legal[0].kind
        if kind in ("blind", "look"):  # SP-V1: a blind nil only when far behind
            behind = max(view.totals) - view.totals[view.seat] if view.totals else 0
            want = "blind" if behind >= self.BLIND_BEHIND else "look"
            return next((a for a in legal if a.kind == want), legal[0])
        if kind == "pass" and len(legal) > 1:  # SP-V1: the blind bidder passes its highest, the partner its lowest
            pos, suit_of = view.facts.pos, view.facts.suit_of
            t = view.counters.get("trump", 0)
            trump = view.deck.suits[t - 1] if t else None

            def height(a: Action) -> tuple[bool, int, int]:
                return (suit_of[a.cards[0]] == trump, pos[a.cards[0]], a.cards[0])

            back = view.counters.get("blind_pass", 0) == 2
            return min(legal, key=height) if back else max(legal, key=height)
        return super().choose(view, legal)

    def _bid(self, view: View, legal: list[Action]) -> Action:
        wanted = self.estimate(view)
        if wanted < 0.6 and not self._high_spades(view):
            wanted = 0  # nil (SP-5.4): a hand with no likely trick and no spade that must win
        else:
            wanted = max(wanted, 1)
        return min(legal, key=lambda a: (abs(BID_OF_WORD[a.detail] - wanted), BID_OF_WORD[a.detail]))

    @staticmethod
    def _high_spades(view: View) -> bool:
        pos, suit_of = view.facts.pos, view.facts.suit_of
        top = len(view.deck.ranks) - 1
        return any(suit_of[c] == "♠" and pos[c] >= top - 3 for c in view.hand)

    @staticmethod
    def need(view: View) -> int:
        counters, seat, n = view.counters, view.seat, view.players
        mine = counters.get(f"bid.{seat}", 0)
        partner = (seat + 2) % n
        if not mine and f"bid.{seat}" in counters:
            return 0  # a nil bidder ducks every trick it can
        if not counters.get(f"bid.{partner}", 1):
            return 1  # a nil partner: win to cover it
        side = sum(counters.get(f"bid.{s}", 0) for s in (seat, partner))
        taken = sum(counters.get(f"tricks.{s}", 0) for s in (seat, partner))
        if side > taken:
            return side - taken
        them = [(seat + 1) % n, (seat + 3) % n]
        left = sum(counters.get(f"bid.{s}", 0) for s in them) - sum(counters.get(f"tricks.{s}", 0) for s in them)
        return 1 if left > 0 else 0  # the contract is made: set theirs while it can still fail


class NaiveOhHellBot(OhHellBot):
    """The yardstick for the bidding (bench/trick_bots.py): bids an even share of the tricks, the cards dealt
    over the players, whatever it holds, then plays as the default bot to make that bid exactly."""

    @staticmethod
    def estimate(view: View) -> float:
        return view.counters.get("dealt", 0) / view.players


class NaiveSpadesBot(SpadesBot):
    """The yardstick for the bidding: bids a quarter of the tricks (3), never nil, then plays as the default bot."""

    def _bid(self, view: View, legal: list[Action]) -> Action:
        wanted = max(1, round(view.counters.get("dealt", 0) / view.players))
        return min(legal, key=lambda a: (abs(BID_OF_WORD[a.detail] - wanted), BID_OF_WORD[a.detail]))
