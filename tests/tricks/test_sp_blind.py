"""Blind nil (SP-V1) on the trick family: offered far behind, before the hands are seen, scored +-200,
with the two cards passed each way between the blind bidder and the partner; SP-3.4 otherwise.

Seats as in SP-7, clockwise: 0 North, 1 East, 2 South, 3 West; North-South are seats 0 and 2. In the
deals below North deals, so East bids first (SP-3.1) and is asked first about blind nil (SP-V1).
"""

from __future__ import annotations

import json

from tapete import Action, Match, Random, load_variant
from tapete.core.ledger import Ledger
from tapete.gamelog import LogWriter, replay
from tapete.play.deal import Deal, start_deal
from tapete.view import game_facts, make_view

from .helpers import variants
from .test_sp_play import EAST, NORTH, SOUTH, WEST
from .test_sp_play import side_scores as sp_scores

BLIND = "spades/blind-nil"
AHEAD_NS = (250, 100, 250, 100)  # East-West 150 behind: East and West may bid blind


def deal_at(totals, seed=3, name=BLIND, options=None) -> Deal:
    """A fresh deal of a match whose totals are ``totals``, North dealing (East bids first)."""
    v = load_variant(name, options=options) if options else variants[name]
    game = v.new_game()
    ledger = Ledger(4, list(totals))
    ledger.deal_number = 4
    return Deal(v, game, start_deal(game, 4, NORTH, Random(seed, "deal"), ledger))


def kinds(deal: Deal) -> set[str]:
    return {a.kind for a in deal.legal_actions()}


def bid_round(deal: Deal, word="two") -> None:
    """Everyone still to bid bids ``word``."""
    while kinds(deal) == {"bid"}:
        deal.play(f"bid {word}")


def test_sp_v1_blind_nil_is_offered_only_to_a_side_at_least_100_behind():
    assert kinds(deal_at((0, -99, 0, -99))) == {"bid"}  # SP-3.4: 99 behind bids as usual, after seeing
    assert kinds(deal_at((0, 0, 0, 0))) == {"bid"}
    assert kinds(variants["spades/classic"].new_deal(4, seed=1)) == {"bid"}
    deal = deal_at(AHEAD_NS)
    assert deal.to_move == EAST and kinds(deal) == {"blind", "look"}  # SP-V1, in bidding order
    deal.play("look")
    assert deal.to_move == WEST  # South (ahead) is not asked
    deal.play("look")
    assert deal.to_move == EAST and kinds(deal) == {"bid"}  # the bids then go round from East as usual
    # the YAML option moves the threshold
    assert kinds(deal_at(AHEAD_NS, options={"behind": 200})) == {"bid"}
    assert kinds(deal_at((300, 100, 300, 100), options={"behind": 200})) == {"blind", "look"}


def test_sp_v1_the_hand_is_not_seen_before_the_declaration():
    deal = deal_at(AHEAD_NS)
    dealt = {s: list(deal.state.zones[f"facedown.{s}"]) for s in range(4)}
    assert all(len(c) == 13 for c in dealt.values())
    for seat in range(4):  # SP-V1: before anyone sees their cards, nobody's view shows a card
        view = deal.view(seat)
        assert view.hand == () and view.count(f"facedown.{seat}") == 13
        assert not any(view.zones.values()) and not view.known
        assert not set(dealt[seat]) & set(view.seen)
    deal.play("look")
    assert deal.view(EAST).hand == ()  # looking happens when everyone asked has chosen
    deal.play("blind nil")
    for seat in range(4):  # now every hand is picked up
        assert sorted(deal.view(seat).hand) == sorted(dealt[seat])


def test_sp_v1_at_most_one_player_of_a_side_bids_blind():
    deal = deal_at(AHEAD_NS)
    deal.play("blind nil")  # East
    assert kinds(deal) == {"bid"} and deal.to_move == SOUTH  # West is not asked; East's bid is made
    counters = deal.state.counters
    assert counters[f"bid.{EAST}"] == 0 and counters[f"blind.{EAST}"] == 1
    bid_round(deal)
    assert counters[f"bid.{WEST}"] == 2 and not counters.get(f"blind.{WEST}")
    assert deal.state.counters["bids_made"] == 4


def side_scores(counters):
    return sp_scores(counters, name=f"{BLIND}")


def test_sp_v1_a_blind_nil_scores_as_a_nil_but_200():
    # SP-7.3 with East's nil bid blind: it fails for -200, not -100 (West's 31 stands)
    base = {"bid.3": 3, "bid.0": 4, "bid.1": 0, "bid.2": 2, "tricks.0": 5, "tricks.2": 3, "tricks.3": 4}
    failed = base | {"tricks.1": 1, "blind.1": 1}
    assert side_scores(failed)[EAST] == (31 - 200, 1)
    assert side_scores(failed)[NORTH] == (62, 2)
    made = base | {"tricks.0": 6, "tricks.1": 0, "blind.1": 1}
    assert side_scores(made)[WEST] == (31 + 200, 1)
    assert side_scores(base | {"tricks.1": 1})[EAST] == (31 - 100, 1)  # an ordinary nil is still +-100


def test_sp_v1_the_blind_bidder_and_the_partner_pass_two_cards_each_way_unseen_by_the_opponents():
    deal = deal_at(AHEAD_NS)
    deal.play("blind nil")  # East
    bid_round(deal)
    zones = deal.state.zones
    assert kinds(deal) == {"pass"} and deal.to_move == EAST
    before = {s: set(zones[f"hand.{s}"]) for s in range(4)}
    sent = [zones[f"hand.{EAST}"][0], zones[f"hand.{EAST}"][1]]
    for card in sent:
        deal.play(f"pass {deal.game.deck.format(card)}")
    assert set(sent) <= set(zones[f"hand.{WEST}"]) and len(zones[f"hand.{WEST}"]) == 15
    assert deal.to_move == WEST and kinds(deal) == {"pass"}  # then the partner passes any two back
    assert set(sent) <= set(deal.view(WEST).hand)  # the partner sees the two received
    for seat in (NORTH, SOUTH):  # the opponents see only that two cards went across
        view = deal.view(seat)
        assert view.count(f"hand.{WEST}") == 15 and view.count(f"hand.{EAST}") == 11
        assert not set(sent) & set(view.seen) and not set(sent) & set(view.known)
    back = [sent[0], zones[f"hand.{WEST}"][0]]  # "any two": one of the received cards may go back
    for card in back:
        deal.play(f"pass {deal.game.deck.format(card)}")
    assert all(len(zones[f"hand.{s}"]) == 13 for s in range(4))
    assert set(zones[f"hand.{EAST}"]) == before[EAST] - set(sent) | set(back)
    for seat in (NORTH, SOUTH):
        view = deal.view(seat)
        assert not (set(sent) | set(back)) & set(view.seen)
    assert kinds(deal) == {"play"} and deal.to_move == EAST  # SP-4.1 East, on the dealer's left, leads


def bot_move(deal: Deal, totals) -> Action:
    """What the default bot at the seat to move plays, handed a view with the match's totals."""
    seat, game = deal.to_move, deal.game
    view = make_view(game, deal.state, seat, game_facts(game, seat), deal.variant.options, Ledger(4, list(totals)))
    bot = deal.variant.registry.bot("spades", "heuristic").factory(game, seat, Random(1, "bot"))
    return bot.choose(view, deal.legal_actions())


def test_sp_v1_the_default_bot_declares_only_far_behind_and_passes_high_then_low():
    def choice(totals):
        deal = deal_at(totals)
        return bot_move(deal, totals).text(deal.game.deck)

    assert choice(AHEAD_NS) == "look"  # 150 behind: not enough for this bot
    assert choice((300, 100, 300, 100)) == "blind nil"  # 200 behind
    deal = deal_at((300, 100, 300, 100))
    deal.play("blind nil")
    bid_round(deal)
    facts = deal.view(EAST).facts

    def height(c):
        return (facts.suit_of[c] == "♠", facts.pos[c])

    for seat, pick in ((EAST, max), (EAST, max), (WEST, min), (WEST, min)):
        assert deal.to_move == seat
        want = pick(deal.state.zones[f"hand.{seat}"], key=height)
        got = bot_move(deal, (300, 100, 300, 100))
        assert got.cards == (want,)
        deal.play(got)


def test_sp_v1_whole_matches_play_to_the_end_and_replay_from_their_logs(tmp_path):
    seen = set()
    for seed, bots in ((1, ["heuristic"] * 4), (1, ["random"] * 4), (2, ["heuristic", "random"] * 2)):
        path = tmp_path / f"{seed}-{bots[1]}.jsonl"
        writer = LogWriter(path)
        try:
            result = Match(variants[BLIND], 4, seed, bots=bots).play(writer)
        finally:
            writer.close()
        assert result.winners
        lines = path.read_text(encoding="utf-8").splitlines()
        for line in lines:
            event = json.loads(line)
            if event.get("type") == "action":
                seen.add(event["action"].split()[0])
        assert replay(path).events == len(lines)
    assert {"blind", "look", "pass", "bid", "play"} <= seen


def test_sp_v1_the_table_shows_the_hands_face_down_until_the_declarations_are_made():
    deal = deal_at(AHEAD_NS)
    layout = variants[BLIND].record.layout
    view = deal.view(EAST)
    table = {r.label: r for r in layout.table(view) + layout.hand(view, deal.legal_actions())}
    assert table["your hand"].cards == ()  # the terminal and the web draw these rows: no card of the hand
    assert not any(isinstance(t, int) for r in table.values() for t in r.cards)
    assert "13 cards" in table["face down"].note and "blind nil" in table["to bid"].note
    assert "13 cards face down" in layout.seat_facts(view, EAST)
    deal.play("blind nil")
    view = deal.view(SOUTH)
    assert "bid blind nil" in layout.seat_facts(view, EAST) and len(view.hand) == 13


def test_sp_v1_a_deal_saved_while_the_hands_lie_face_down_goes_on_from_its_snapshot():
    deal = deal_at(AHEAD_NS)
    deal.play("look")  # East looks; West is still to choose
    again = variants[BLIND].deal_from_snapshot(deal.snapshot())
    assert again.to_move == WEST and kinds(again) == {"blind", "look"}
    again.play("blind nil")
    bid_round(again)
    assert kinds(again) == {"pass"} and again.to_move == WEST  # the blind bidder passes first
    mid = variants[BLIND].deal_from_snapshot(again.snapshot())
    mid.play(mid.legal_actions()[0])
    assert mid.view(EAST).count(f"chosen.{WEST}") == 1 and mid.view(EAST).cards(f"chosen.{WEST}") == ()
