import { describe, expect, it } from 'vitest'
import { vaderPolarityScores } from '@/lib/moderation/engines/sentiment/vader'

// NLTK's published examples (nltk/test/sentiment.doctest): sentence, compound, neg, neu, pos.
const NLTK_EXAMPLES: [string, number, number, number, number][] = [
  ['VADER is smart, handsome, and funny.', 0.8316, 0.0, 0.254, 0.746],
  ['VADER is smart, handsome, and funny!', 0.8439, 0.0, 0.248, 0.752],
  ['VADER is very smart, handsome, and funny.', 0.8545, 0.0, 0.299, 0.701],
  ['VADER is VERY SMART, handsome, and FUNNY.', 0.9227, 0.0, 0.246, 0.754],
  ['VADER is VERY SMART, handsome, and FUNNY!!!', 0.9342, 0.0, 0.233, 0.767],
  ['VADER is VERY SMART, really handsome, and INCREDIBLY FUNNY!!!', 0.9469, 0.0, 0.294, 0.706],
  ['The book was good.', 0.4404, 0.0, 0.508, 0.492],
  ['The book was kind of good.', 0.3832, 0.0, 0.657, 0.343],
  ['The plot was good, but the characters are uncompelling and the dialog is not great.', -0.7042, 0.327, 0.579, 0.094],
  ['A really bad, horrible book.', -0.8211, 0.791, 0.209, 0.0],
  ["At least it isn't a horrible book.", 0.431, 0.0, 0.637, 0.363],
  [':) and :D', 0.7925, 0.0, 0.124, 0.876],
  ['', 0.0, 0.0, 0.0, 0.0],
  ['Today sux', -0.3612, 0.714, 0.286, 0.0],
  ['Today sux!', -0.4199, 0.736, 0.264, 0.0],
  ['Today SUX!', -0.5461, 0.779, 0.221, 0.0],
  ["Today kinda sux! But I'll get by, lol", 0.5249, 0.138, 0.517, 0.344],
  ["It was one of the worst movies I've seen, despite good reviews.", -0.7584, 0.394, 0.606, 0.0],
  ['Unbelievably bad acting!!', -0.6572, 0.686, 0.314, 0.0],
  ['Poor direction.', -0.4767, 0.756, 0.244, 0.0],
  ['VERY poor production.', -0.6281, 0.674, 0.326, 0.0],
  ['The movie was bad.', -0.5423, 0.538, 0.462, 0.0],
  ['Very bad movie.', -0.5849, 0.655, 0.345, 0.0],
  ['VERY bad movie.', -0.6732, 0.694, 0.306, 0.0],
  ['VERY BAD movie.', -0.7398, 0.724, 0.276, 0.0],
  ['VERY BAD movie!', -0.7616, 0.735, 0.265, 0.0],
  ['Most automated sentiment analysis tools are shit.', -0.5574, 0.375, 0.625, 0.0],
  ['VADER sentiment analysis is the shit.', 0.6124, 0.0, 0.556, 0.444],
  ['Sentiment analysis has never been good.', -0.3412, 0.325, 0.675, 0.0],
  ['Sentiment analysis with VADER has never been this good.', 0.5228, 0.0, 0.703, 0.297],
  ['Warren Beatty has never been so entertaining.', 0.5777, 0.0, 0.616, 0.384],
  ["I won't say that the movie is astounding and I wouldn't claim that the movie is too banal either.", 0.4215, 0.0, 0.851, 0.149],
  ["I like to hate Michael Bay films, but I couldn't fault this one", 0.3153, 0.157, 0.534, 0.309],
  ["I like to hate Michael Bay films, BUT I couldn't help but fault this one", -0.1531, 0.277, 0.477, 0.246],
  ["It's one thing to watch an Uwe Boll film, but another thing entirely to pay for it", -0.2541, 0.112, 0.888, 0.0],
  ['The movie was too good', 0.4404, 0.0, 0.58, 0.42],
  ['This movie was actually neither that funny, nor super witty.', -0.6759, 0.41, 0.59, 0.0],
  ["This movie doesn't care about cleverness, wit or any other kind of intelligent humor.", -0.1338, 0.265, 0.497, 0.239],
  ['Those who find ugly meanings in beautiful things are corrupt without being charming.', -0.3553, 0.314, 0.493, 0.192],
  ['There are slow and repetitive parts, BUT it has just enough spice to keep it interesting.', 0.4678, 0.079, 0.735, 0.186],
  ['The script is not fantastic, but the acting is decent and the cinematography is EXCELLENT!', 0.7565, 0.092, 0.607, 0.301],
  ['Roger Dodger is one of the most compelling variations on this theme.', 0.2944, 0.0, 0.834, 0.166],
  ['Roger Dodger is one of the least compelling variations on this theme.', -0.1695, 0.132, 0.868, 0.0],
  ['Roger Dodger is at least compelling as a variation on the theme.', 0.2263, 0.0, 0.84, 0.16],
  ['they fall in love with the product', 0.6369, 0.0, 0.588, 0.412],
  ['but then it breaks', 0.0, 0.0, 1.0, 0.0],
  ['usually around the time the 90 day warranty expires', 0.0, 0.0, 1.0, 0.0],
  ['the twin towers collapsed today', -0.2732, 0.344, 0.656, 0.0],
  ["However, Mr. Carter solemnly argues, his client carried out the kidnapping under orders and in the ''least offensive way possible.''", -0.5859, 0.23, 0.697, 0.074],
]

describe('VADER matches NLTK SentimentIntensityAnalyzer', () => {
  it.each(NLTK_EXAMPLES)('%j', (sentence, compound, neg, neu, pos) => {
    expect(vaderPolarityScores(sentence)).toEqual({ neg, neu, pos, compound })
  })
})
