"""Hand-made records shared by the score, replay and fmt tests."""

# Hand 1: Cal pitches 2 and leads AS, the only spade dealt: a lone trump, High
# and Low (AP-SCORE-3); the jack of spades is not in play; Ben takes Game with
# 19 game points. Hand 2: everybody passes to Ben, the dealer, who must bid 2
# (AP-BID-4) and is set back; Ann and Dot tie for Game with 10 each (AP-SCORE-2).
LONE_AND_TIE = """\
format: pitch-record/1
variant: auction
players: [Ann, Ben, Cal, Dot]
hands:
  - dealer: Ann
    bids: [pass, 2, pass, pass]
    tricks:
      - [AS, 2C, 3C, 4C]
      - [2H, 3H, 4H, AH]
      - [KH, 5H, 6H, 7H]
      - [QH, 8H, 9H, 10H]
      - [2D, 3D, 4D, 5D]
      - [6D, 7D, 8D, 9D]
  - dealer: Ben
    bids: [pass, pass, pass, 2]
    tricks:
      - [2S, 3S, 4S, 5S]
      - [10H, 2H, 3H, 4H]
      - [5H, 6H, 7H, 8H]
      - [10D, 2D, 3D, 4D]
      - [5D, 6D, 7D, 8D]
      - [2C, 3C, 4C, 5C]
"""

# FORMAT.md's example: hand 1 as play, hand 2 as a tally (contract and points).
FORMAT_EXAMPLE = """\
format: pitch-record/1
variant: auction
rules: {target: 11}
players: [Ann, Ben, Cal, Dot]
hands:
  - dealer: Ann
    bids: [pass, 2, 3, pass]
    tricks:
      - [KS, 3S, 10S, AS]
      - [QD, 5D, JS, 9D]
      - [AH, 4H, 7H, 2H]
      - [KC, 6C, 2S, 8C]
      - [TD, JD, 6D, KD]
      - [QH, 3C, 4S, 9H]
    score: {Ann: 1, Ben: 0, Cal: 3, Dot: -3}
  - dealer: Ben
    contract: {bidder: Cal, bid: 2}
    points: {high: Cal, low: Dot, jack: null, game: Cal}
    score: {Ann: 0, Ben: 0, Cal: 2, Dot: 1}
    totals: {Ann: 1, Ben: 0, Cal: 5, Dot: -2}
result: {winner: null, scores: {Ann: 1, Ben: 0, Cal: 5, Dot: -2}}
"""

# A ten-point score sheet kept as a tally: teams, contract, trump, points.
TEN_POINT_TALLY = """\
format: pitch-record/1
variant: ten-point
players: [Ann, Ben, Cal, Dot]
teams: {Us: [Ann, Cal], Them: [Ben, Dot]}
hands:
  - dealer: Ann
    contract: {bidder: Ben, bid: 6}
    trump: H
    points: {Us: 7, Them: 3}
  - dealer: Ben
    contract: {bidder: Cal, bid: 5}
    points: {Us: 5, Them: 5}
"""
